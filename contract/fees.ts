/**
 * The marketplace's fee on a sale, taken from the seller's share: PLATFORM_FEE_PERCENT of the price (in basis
 * points, rounded half up to the cent), at least PLATFORM_FEE_MIN_CENTS, never more than the price. The buyer
 * pays the listed price; the seller receives the price less the fee. The server and the listing form use
 * this one function, so the form's "You'll receive" is what the ledger will post.
 */
export type FeeRule = { basisPoints: number; minCents: number }

export function feeCents(priceCents: number, rule: FeeRule): number {
  if (priceCents <= 0) return 0
  const byPercent = Math.floor((priceCents * rule.basisPoints + 5000) / 10_000)
  return Math.min(priceCents, Math.max(rule.minCents, byPercent))
}

/** What the seller receives from a sale at this price. */
export function sellerNetCents(priceCents: number, rule: FeeRule): number {
  return priceCents - feeCents(priceCents, rule)
}
