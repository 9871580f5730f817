import { formatMoney } from '#contract/money'
import { plural, pluralNoun } from '#contract/plural'

export { storageLabel as formatStorage } from '#contract/units'
export { formatMoney, plural, pluralNoun }

/**
 * Dates show as "Nov 3, 2026". We format in UTC so a listing shows the same day for every visitor
 * and in every test run, whatever the machine's time zone.
 */
const dateFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
})

export function formatDate(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date)
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
