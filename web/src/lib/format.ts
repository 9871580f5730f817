import { formatMoney } from '#contract/money'
import { formatCount, plural, pluralNoun } from '#contract/plural'

export { storageLabel as formatStorage } from '#contract/units'
export { formatCount, formatMoney, plural, pluralNoun }

/** A month's short name as en-US writes it ("Sep"). */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/**
 * An instant's day in UTC: every visitor and every test run sees the same day, whatever the machine's time zone.
 * Written out rather than asked of Intl.DateTimeFormat, whose data a browser loads at its first date (decision 0170).
 */
function utcDay(iso: string): { day: number; month: string; year: number } | undefined {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return undefined
  return { day: date.getUTCDate(), month: MONTHS[date.getUTCMonth()] ?? '', year: date.getUTCFullYear() }
}

/** Dates show as "Nov 3, 2026", in UTC. */
export function formatDate(iso: string): string {
  const d = utcDay(iso)
  return d ? `${d.month} ${d.day}, ${d.year}` : ''
}

/**
 * "12 Nov" (with the year when it is not this year's, "12 Sept 2025": en-GB's September): the day a battery report
 * was made.
 */
export function formatReportDay(iso: string, now = new Date()): string {
  const d = utcDay(iso)
  if (!d) return ''
  const day = `${d.day} ${d.month === 'Sep' ? 'Sept' : d.month}`
  return d.year === now.getUTCFullYear() ? day : `${day} ${d.year}`
}

export function formatYearsOfUse(years: number): string {
  return years < 1 ? 'Less than a year of use' : `${plural(years, 'year')} of use`
}

/** A time of day in the reader's own zone ("3:42 PM"): used for holds that end within minutes. */
export function formatTime(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })
}

/** A countdown as "14:05" (minutes and seconds), never below zero. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const minutes = Math.floor(total / 60)
  const seconds = total % 60
  return `${minutes}:${String(seconds).padStart(2, '0')}`
}

/** "$12.50", or "−$12.50" below zero (a seller's balance after a late refund). */
export function formatSignedMoney(cents: number): string {
  return cents < 0 ? `−${formatMoney(-cents)}` : formatMoney(cents)
}
