import { describe, expect, it } from 'vitest'
import { seededRandom } from './seeded-random'

describe('seededRandom', () => {
  it('draws mulberry32: the demo pictures and the tests seeded with it draw what they always drew', () => {
    const draw = seededRandom(1)
    expect([draw(), draw(), draw()]).toEqual([0.6270739405881613, 0.002735721180215478, 0.5274470399599522])
  })

  it('draws the same from the same seed, in [0, 1)', () => {
    const a = seededRandom(2026)
    const b = seededRandom(2026)
    for (let i = 0; i < 10_000; i++) {
      const x = a()
      expect(x).toBe(b())
      expect(x >= 0 && x < 1).toBe(true)
    }
  })
})
