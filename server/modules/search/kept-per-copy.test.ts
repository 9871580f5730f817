import { describe, expect, it } from 'vitest'
import { KeptPerCopy } from './kept-per-copy'

describe('values kept per copy', () => {
  it('works a value out once per copy and key, and drops the oldest past the size bound', () => {
    const kept = new KeptPerCopy<object, number[]>(5, (v) => v.length)
    const copy = {}
    let made = 0
    const make = (n: number) => () => {
      made++
      return Array.from({ length: n }, (_, i) => i)
    }
    expect(kept.get(copy, 'a', make(2))).toEqual([0, 1])
    expect(kept.get(copy, 'a', make(2))).toEqual([0, 1])
    expect(made).toBe(1)
    // Another copy has its own values.
    kept.get({}, 'a', make(2))
    expect(made).toBe(2)
    // 2 + 3 fits; one more makes 6, so the oldest ("a") goes.
    kept.get(copy, 'b', make(3))
    kept.get(copy, 'c', make(1))
    kept.get(copy, 'b', make(3))
    expect(made).toBe(4)
    kept.get(copy, 'a', make(2))
    expect(made).toBe(5)
  })

  it('keeps a share of the size bound in proportion to the copy’s listings, when told them, up to the whole', () => {
    const kept = new KeptPerCopy<{ size: number }, number[]>(
      10,
      (v) => v.length,
      (c) => c.size,
    )
    let made = 0
    const make = () => {
      made++
      return [0, 0, 0]
    }
    // 500,000 listings: half the bound (5), so a second value of 3 drops the first.
    const half = { size: 500_000 }
    kept.get(half, 'a', make)
    kept.get(half, 'b', make)
    kept.get(half, 'a', make)
    expect(made).toBe(3)
    // 2,000,000 listings: the whole bound (10), three values of 3 kept.
    const whole = { size: 2_000_000 }
    for (const key of ['a', 'b', 'c', 'a', 'b', 'c']) kept.get(whole, key, make)
    expect(made).toBe(6)
  })
})
