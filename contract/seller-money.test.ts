import { describe, expect, it } from 'vitest'
import { earningsCsv, saleMoneyLine } from './seller-money'

describe('earningsCsv', () => {
  it('writes one line per sale in dollars, quoting and defusing what a spreadsheet would misread', () => {
    const csv = earningsCsv([
      {
        booking_id: 'b1',
        product_name: 'ThinkPad X1, "Carbon"',
        paid_at: '2026-11-02T10:00:00.000Z',
        completed_at: '2026-11-09T10:00:00.000Z',
        price_cents: 64_900,
        fee_cents: 3245,
        receive_cents: 61_655,
        where: 'paid_out',
      },
      {
        booking_id: 'b2',
        product_name: '=HYPERLINK("x")',
        paid_at: '2026-11-20T10:00:00.000Z',
        completed_at: null,
        price_cents: 1000,
        fee_cents: 50,
        receive_cents: 950,
        where: 'in_escrow',
      },
      {
        booking_id: 'b3',
        product_name: 'MacBook Air',
        paid_at: '2026-11-21T10:00:00.000Z',
        completed_at: null,
        price_cents: 61_900,
        fee_cents: 3095,
        receive_cents: 0,
        where: 'refunded',
      },
    ])
    expect(csv.split('\r\n')).toEqual([
      'Paid on,Completed on,Laptop,Price agreed (USD),Fee (USD),You receive (USD),Where it is',
      '2026-11-02,2026-11-09,"ThinkPad X1, ""Carbon""",649.00,32.45,616.55,Paid out',
      `2026-11-20,,"'=HYPERLINK(""x"")",10.00,0.50,9.50,Held`,
      '2026-11-21,,MacBook Air,619.00,30.95,0.00,Refunded to the buyer',
      '',
    ])
  })
})

describe('saleMoneyLine', () => {
  it("writes a sale's figures in the pages' words", () => {
    expect(saleMoneyLine({ price_cents: 72_000, fee_cents: 3600, receive_cents: 68_400 })).toBe(
      'Price agreed $720 · Fee $36 · You receive $684',
    )
    expect(saleMoneyLine({ price_cents: 61_900, fee_cents: 3095, receive_cents: 0 }, 'Seller receives')).toBe(
      'Price agreed $619 · Fee $30.95 · Seller receives $0',
    )
  })
})
