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
})
