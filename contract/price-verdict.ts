// Kept apart from the zod schemas so the listing cards of public pages carry only this.

/** The figures a listing's badge is judged against, in dollars. */
type Quartiles = { p25: number; p75: number }

export type PriceVerdict = 'great' | 'fair'

/** "Great price" at or below the 25th percentile, "Fair price" up to the 75th, nothing above. */
export function priceVerdict(priceDollars: number, guide: Quartiles | null | undefined): PriceVerdict | null {
  if (!guide) return null
  if (priceDollars <= guide.p25) return 'great'
  if (priceDollars <= guide.p75) return 'fair'
  return null
}
