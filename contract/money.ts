/** Money travels as integer cents; dollars only at the edges. */
export function centsToDollars(cents: number): number {
  return cents / 100
}

export function formatMoney(cents: number): string {
  const whole = cents % 100 === 0
  return `$${(cents / 100).toLocaleString('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  })}`
}
