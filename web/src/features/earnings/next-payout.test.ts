import { describe, expect, it } from 'vitest'
import { nextPayoutWords } from './next-payout'

describe('nextPayoutWords', () => {
  const now = new Date('2026-11-02T15:20:00Z')

  it('says today or tomorrow, else the day, with the UTC time', () => {
    expect(nextPayoutWords('2026-11-02T16:00:00.000Z', now)).toBe('today at 16:00 UTC')
    expect(nextPayoutWords('2026-11-03T00:00:00.000Z', now)).toBe('tomorrow at 00:00 UTC')
    expect(nextPayoutWords('2026-11-09T00:00:00.000Z', now)).toBe('Mon, Nov 9 at 00:00 UTC')
  })

  it('shows seconds only on a schedule that has them, and nothing for a time it cannot read', () => {
    expect(nextPayoutWords('2026-11-02T15:20:05.000Z', now)).toBe('today at 15:20:05 UTC')
    expect(nextPayoutWords('soon', now)).toBe('')
  })
})
