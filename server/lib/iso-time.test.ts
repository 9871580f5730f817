import { describe, expect, it } from 'vitest'
import { isoTime } from './iso-time'

describe('isoTime', () => {
  it("gives Date's answer for PostgreSQL's text of a time in UTC, whatever its fraction", () => {
    const texts = [
      '2026-05-21 03:11:49.639305+00',
      '2026-05-21 03:11:49.6+00',
      '2026-05-21 03:11:49.06+00',
      '2026-05-21 03:11:49.999999+00',
      '2026-05-21 03:11:49.0005+00',
      '2026-05-21 03:11:49+00',
      '1999-12-31 23:59:59.9995+00',
      '2024-02-29 00:00:00.000001+00',
    ]
    for (const text of texts) expect(isoTime(text), text).toBe(new Date(text).toISOString())
  })

  it('reads any other form, a Date or another zone, as Date does', () => {
    const others = [
      '2026-05-21 05:11:49.639305+02',
      '2026-05-21 03:11:49.639-05:30',
      '2026-05-21T03:11:49.639Z',
    ]
    for (const text of others) expect(isoTime(text), text).toBe(new Date(text).toISOString())
    const date = new Date('2026-05-21T03:11:49.639Z')
    expect(isoTime(date)).toBe(date.toISOString())
  })

  it('agrees with Date over many times to the microsecond', () => {
    let seed = 7
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
      return seed
    }
    for (let i = 0; i < 2_000; i++) {
      const ms = 1_500_000_000_000 + (next() % 400_000_000) * 1_000
      const micros = String(next() % 1_000_000)
        .padStart(6, '0')
        .replace(/0+$/, '')
      const base = new Date(ms).toISOString().replace('T', ' ').slice(0, 19)
      const text = `${base}${micros ? `.${micros}` : ''}+00`
      expect(isoTime(text), text).toBe(new Date(text).toISOString())
    }
  })
})
