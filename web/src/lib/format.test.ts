import { describe, expect, it } from 'vitest'
import {
  formatCount,
  formatDate,
  formatMoney,
  formatReportDay,
  formatSignedMoney,
  formatStorage,
  formatYearsOfUse,
  plural,
} from './format'

describe('format', () => {
  it('shows whole dollars without cents and others with two decimals', () => {
    expect(formatMoney(129_900)).toBe('$1,299')
    expect(formatMoney(129_950)).toBe('$1,299.50')
    expect(formatMoney(5)).toBe('$0.05')
    expect(formatMoney(0)).toBe('$0')
    expect(formatMoney(123_456_789_00)).toBe('$123,456,789')
    expect(formatSignedMoney(-1_250)).toBe('−$12.50')
  })

  it('writes counts, money and days as Intl does for en-US, without asking it', () => {
    const counts = [
      0,
      1,
      7,
      12,
      999,
      1_000,
      1_204,
      99_999,
      100_000,
      1_000_000,
      123_456_789,
      2 ** 31,
      -1,
      -1_234_567,
    ]
    const fractions = [1.5, 0.25, 1_234.5678, 999.9999, 12.001, -3.75]
    for (const n of [...counts, ...fractions]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'))
    const intlMoney = (cents: number) =>
      `$${(cents / 100).toLocaleString('en-US', {
        minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
        maximumFractionDigits: 2,
      })}`
    for (const cents of [...counts, 5, 50, 99, 101, 129_950, 100_000_01, -5, -50, -1_250])
      expect(formatMoney(cents)).toBe(intlMoney(cents))
    const usDay = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    })
    const gbDay = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    })
    for (let month = 0; month < 12; month++) {
      for (const day of [1, 9, 28]) {
        const at = new Date(Date.UTC(2026, month, day, 23, 30))
        expect(formatDate(at.toISOString())).toBe(usDay.format(at))
        expect(formatReportDay(at.toISOString(), new Date('2027-06-01T00:00:00Z'))).toBe(gbDay.format(at))
      }
    }
  })

  it('groups counts by thousands, the same at every call', () => {
    expect(formatCount(0)).toBe('0')
    expect(formatCount(1_204)).toBe('1,204')
    expect(formatCount(1_000_000)).toBe('1,000,000')
    expect(plural(1_204, 'laptop')).toBe('1,204 laptops')
  })

  it('shows dates as "Nov 3, 2026"', () => {
    expect(formatDate('2026-11-03T10:00:00.000Z')).toBe('Nov 3, 2026')
    expect(formatDate('not a date')).toBe('')
    expect(formatReportDay('not a date')).toBe('')
  })

  it('names years of use and storage sizes', () => {
    expect(formatYearsOfUse(2)).toBe('2 years of use')
    expect(formatYearsOfUse(1)).toBe('1 year of use')
    expect(formatYearsOfUse(0)).toBe('Less than a year of use')
    expect(formatStorage(512)).toBe('512 GB')
    expect(formatStorage(2048)).toBe('2 TB')
  })
  it('puts a noun in the number its count needs', () => {
    expect(plural(1, 'save')).toBe('1 save')
    expect(plural(3, 'save')).toBe('3 saves')
    expect(plural(0, 'booking')).toBe('0 bookings')
    expect(plural(2, 'person', 'people')).toBe('2 people')
  })
})
