import type { ListingFacts } from './listing-facts'

/**
 * A copy of the listings without the moment it was made (byCombo.at) and the counts made at that moment, so that two
 * reads of the same listings compare equal whatever millisecond each was made in.
 */
export function withoutClock(f: ListingFacts) {
  const { at: _at, within: _within, ...byCombo } = f.combos.byCombo
  return { ...f, combos: { ...f.combos, byCombo } }
}
