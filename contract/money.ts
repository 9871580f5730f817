import { formatCount } from './plural'

/** Money travels as integer cents; dollars only at the edges. */
export function centsToDollars(cents: number): number {
  return cents / 100
}

/** "$1,299", or "$1,299.50" when there are cents; without Intl, as formatCount (decision 0170). */
export function formatMoney(cents: number): string {
  const whole = Math.round(cents)
  const rest = Math.abs(whole) % 100
  const dollars = formatCount(Math.trunc(whole / 100))
  const sign = whole < 0 && dollars === '0' ? '-' : ''
  return `$${sign}${dollars}${rest === 0 ? '' : `.${String(rest).padStart(2, '0')}`}`
}
