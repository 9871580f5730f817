// Counts with their noun in the right number, for the web app and the emails alike: "1 booking", "3 bookings",
// "1,204 laptops". The one place a count is put into words.

/** The noun for a count: `one` for exactly 1, else `many` (by default `one` + "s"). */
export function pluralNoun(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many
}

/** "1 booking", "12 bookings", "1,204 laptops": the count (grouped by thousands) and its noun. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${pluralNoun(count, one, many)}`
}
