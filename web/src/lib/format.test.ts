import { describe, expect, it } from 'vitest'
import { formatDate, formatMoney, formatStorage, formatYearsOfUse, plural } from './format'

describe('format', () => {
  it('shows whole dollars without cents and others with two decimals', () => {
    expect(formatMoney(129_900)).toBe('$1,299')
    expect(formatMoney(129_950)).toBe('$1,299.50')
  })

  it('shows dates as "Nov 3, 2026"', () => {
    expect(formatDate('2026-11-03T10:00:00.000Z')).toBe('Nov 3, 2026')
    expect(formatDate('not a date')).toBe('')
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
