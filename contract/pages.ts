/**
 * Every page path the web app renders. The server answers these with the app and status 200,
 * and any other path with the app and status 404 (the app then shows its 404 page).
 */
export const PAGE_PATTERNS: readonly RegExp[] = [
  /^\/$/,
  /^\/(login|signup|blog|productcard|advertise|about|contact|terms|privacy)\/?$/,
  /^\/category\/[^/]+\/?$/,
  /^\/products\/[^/]+\/?$/,
  /^\/dashboard\/?$/,
  /^\/dashboard\/(myorders|allbuyers|allsellers|reportedItems|addproduct|myproduct)\/?$/,
  /^\/dashboard\/payment\/[^/]+\/?$/,
  /^\/dashboard\/products\/[^/]+\/edit\/?$/,
]

export function isPagePath(pathname: string): boolean {
  return PAGE_PATTERNS.some((p) => p.test(pathname))
}
