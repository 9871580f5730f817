import { describe, expect, it } from 'vitest'
import { ASKED_KEYS, KEPT_AT_LEAST_BYTES, KEPT_ENTRY_BYTES, KeptPerCopy, withMarks } from './kept-per-copy'

// A key of one character: each kept value costs its bytes, the entry and the key.
const ENTRY = KEPT_ENTRY_BYTES + 1

describe('values kept per copy', () => {
  it('works a value out once per copy and key, and drops the oldest past the bound in bytes', () => {
    const kept = new KeptPerCopy<object, number[]>('test', 5 + 3 * ENTRY, (v) => v.length)
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
    // 2 + 3 fits with their entries; one more makes 6, so the oldest ("a") goes.
    kept.get(copy, 'b', make(3))
    expect(kept.held(copy)).toEqual({ values: 2, bytes: 5 + 2 * ENTRY, max: 5 + 3 * ENTRY })
    kept.get(copy, 'c', make(1))
    kept.get(copy, 'b', make(3))
    expect(made).toBe(4)
    kept.get(copy, 'a', make(2))
    expect(made).toBe(5)
    expect(kept.held(copy).bytes).toBeLessThanOrEqual(kept.held(copy).max)
  })

  it('counts each entry, so that many small values pass the bound as surely as a few big ones', () => {
    const kept = new KeptPerCopy<object, number>('test', 10 * ENTRY, () => 0)
    const copy = {}
    for (let i = 0; i < 100; i++) kept.get(copy, String(i % 10) + String.fromCharCode(65 + (i % 26)), () => i)
    // Keys of two characters: each entry costs ENTRY + 1, so nine fit in ten entries of one.
    expect(kept.held(copy).values).toBe(9)
    expect(kept.held(copy).bytes).toBeLessThanOrEqual(10 * ENTRY)
  })

  it('returns a value bigger than the bound on its own without keeping it', () => {
    const kept = new KeptPerCopy<object, number[]>('test', 4 + ENTRY, (v) => v.length)
    const copy = {}
    kept.get(copy, 'a', () => [1, 2])
    expect(kept.get(copy, 'b', () => [1, 2, 3, 4, 5])).toEqual([1, 2, 3, 4, 5])
    expect(kept.held(copy)).toEqual({ values: 1, bytes: 2 + ENTRY, max: 4 + ENTRY })
  })

  it('asked twice: keeps a value only for a key asked before, so keys asked once push none out', () => {
    const kept = new KeptPerCopy<object, number>('test', 2 * ENTRY, () => 0, undefined, true)
    const copy = {}
    let made = 0
    const make = () => ++made
    // The first ask is answered, not kept; the second is made again and kept; the third is the kept value.
    expect(kept.get(copy, 'a', make)).toBe(1)
    expect(kept.held(copy).values).toBe(0)
    expect(kept.get(copy, 'a', make)).toBe(2)
    expect(kept.get(copy, 'a', make)).toBe(2)
    expect(made).toBe(2)
    // Many keys asked once leave what was asked twice in place.
    for (let i = 0; i < 100; i++) kept.get(copy, `x${i}`, make)
    expect(kept.get(copy, 'a', make)).toBe(2)
    expect(kept.held(copy).values).toBe(1)
    // A value set in place of a kept one is kept at once; a new key's set counts as its first ask.
    kept.set(copy, 'a', 7)
    expect(kept.get(copy, 'a', make)).toBe(7)
    kept.set(copy, 'b', 8)
    expect(kept.held(copy).values).toBe(1)
    kept.set(copy, 'b', 9)
    expect(kept.get(copy, 'b', make)).toBe(9)
    // Only the latest ASKED_KEYS keys asked once are remembered; another copy remembers its own.
    kept.get(copy, 'old', make)
    for (let i = 0; i < ASKED_KEYS; i++) kept.get(copy, `y${i}`, make)
    const before = made
    kept.get(copy, 'old', make)
    kept.get({}, 'b', make)
    expect(kept.held(copy).values).toBe(2)
    expect(made).toBe(before + 2)
  })

  it('tells make whether its value will be kept: from a second ask when asked twice, else always', () => {
    const told: boolean[] = []
    const make = (keeping: boolean) => {
      told.push(keeping)
      return 0
    }
    const twice = new KeptPerCopy<object, number>('test', 2 * ENTRY, () => 0, undefined, true)
    const copy = {}
    twice.get(copy, 'a', make)
    twice.get(copy, 'a', make)
    twice.get(copy, 'a', make)
    twice.get(copy, 'b', make)
    expect(told).toEqual([false, true, false])
    told.length = 0
    const always = new KeptPerCopy<object, number>('test', 2 * ENTRY, () => 0)
    always.get(copy, 'a', make)
    always.get(copy, 'b', make)
    expect(told).toEqual([true, true])
  })

  it('keeps a share of the bound in proportion to the copy’s listings, when told them, up to the whole', () => {
    const MB = 1024 * 1024
    const kept = new KeptPerCopy<{ size: number }, number>(
      'test',
      4 * MB,
      () => 0.7 * MB,
      (c) => c.size,
    )
    let made = 0
    const make = () => ++made
    const keep = (copy: { size: number }, keys: string[]) => {
      for (const key of keys) kept.get(copy, key, make)
      return kept.held(copy).values
    }
    // 500,000 listings: half the bound (2 MB), two values kept.
    expect(keep({ size: 500_000 }, ['a', 'b', 'c'])).toBe(2)
    // 2,000,000 listings: the whole bound, five kept.
    expect(keep({ size: 2_000_000 }, ['a', 'b', 'c', 'd', 'e', 'f'])).toBe(5)
    // 100,000 listings: a share of 0.4 MB, raised to what any copy keeps (KEPT_AT_LEAST_BYTES): one value.
    expect(kept.maxFor(100_000)).toBe(KEPT_AT_LEAST_BYTES)
    expect(keep({ size: 100_000 }, ['a', 'b'])).toBe(1)
    expect(kept.maxFor(1_000_000)).toBe(4 * MB)
  })

  it('lends one array of marks per thread, all 0, and unmarks it when a use fails midway', () => {
    const unmarked = (size: number) => withMarks(size, (m) => m.subarray(0, size).every((v) => v === 0))
    const first = withMarks(10, (m) => m)
    expect(withMarks(10, (m) => m)).toBe(first)
    expect(() =>
      withMarks(10, (m) => {
        m[3] = 1
        throw new Error('midway')
      }),
    ).toThrow('midway')
    expect(unmarked(10)).toBe(true)
    // A use within another's gets marks of its own.
    withMarks(10, (outer) => {
      outer[2] = 1
      expect(unmarked(10)).toBe(true)
      outer[2] = 0
    })
    // A larger copy gets a larger array.
    expect(withMarks(5_000, (m) => m.length)).toBeGreaterThanOrEqual(5_000)
    expect(unmarked(5_000)).toBe(true)
  })
})
