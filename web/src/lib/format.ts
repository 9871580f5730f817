import { formatMoney } from '#contract/money'

export { formatMoney }

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
  return `${years} years of use`
}

export function formatStorage(gb: number): string {
  return gb >= 1024 && gb % 1024 === 0 ? `${gb / 1024} TB` : `${gb} GB`
}
