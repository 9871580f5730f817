// Counts with their noun in the right number, for the web app and the emails alike: "1 booking", "3 bookings",
// "1,204 laptops". The one place a count is put into words.

/**
 * "1,204": a count grouped by thousands, as `toLocaleString('en-US')` writes it (a fraction to three places), without
 * Intl. A browser loads Intl's number data at the first number it formats, 20–70 ms of a page's main thread on these
 * machines before any listing shows its price (decision 0170); every page speaks en-US, so the rule is written here.
 */
export function formatCount(count: number): string {
  if (!Number.isFinite(count) || Math.abs(count) >= 1e21) return String(count)
  const [whole = '0', fraction] = String(Math.round(Math.abs(count) * 1000) / 1000).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',')
  const sign = count < 0 && (whole !== '0' || fraction) ? '-' : ''
  return `${sign}${grouped}${fraction ? `.${fraction}` : ''}`
}

/** The noun for a count: `one` for exactly 1, else `many` (by default `one` + "s"). */
export function pluralNoun(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many
}

/** "1 booking", "12 bookings", "1,204 laptops": the count (grouped by thousands) and its noun. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${pluralNoun(count, one, many)}`
}
