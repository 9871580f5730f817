/** `/login?from=/dashboard/myorders?x=1`: the login page sends the user back there after sign-in. */
export function loginPathFrom(pathAndSearch: string): string {
  return `/login?from=${encodeURIComponent(pathAndSearch)}`
}
