import { describe, expect, it } from 'vitest'
import { maskContactDetails } from './contact-details'

describe('maskContactDetails', () => {
  it.each([
    ['Call me on (312) 555-0187 after six', 'Call me on [removed] after six'],
    ['my mobile is +44 7700 900123.', 'my mobile is [removed].'],
    ['text 312.555.0187 or 3125550187', 'text [removed] or [removed]'],
    ['Write to bea.buyer+laptops@example.co.uk instead', 'Write to [removed] instead'],
    ['IBAN GB33 BUKB 2020 1555 5555 55 please', 'IBAN [removed] please'],
    ['IBAN DE89370400440532013000', 'IBAN [removed]'],
    ['sort code 12-34-56, account 31926819', 'sort code [removed], account [removed]'],
    ['routing 110000000 account 000123456789', 'routing [removed] account [removed]'],
  ])('masks %j', (text, masked) => {
    expect(maskContactDetails(text)).toBe(masked)
  })

  it('leaves prices, model numbers, dates, times and short numbers alone', () => {
    const text =
      'Would you take $1,299.50 for the i7-1165G7 with 16 GB? I can meet on 2026-11-30 at 10:30 at Gate 12, flat 4B.'
    expect(maskContactDetails(text)).toBe(text)
  })
})
