import { describe, expect, it } from 'vitest'
import { normalEmail, sameEmail } from './email'

describe('email spelling', () => {
  it('stores and compares an address trimmed and in lower case', () => {
    expect(normalEmail('  Ada.Admin@LaptopMarket.TEST ')).toBe('ada.admin@laptopmarket.test')
  })

  it('finds the same account however the address is typed, and no other', () => {
    expect(sameEmail('seller@laptopmarket.test', ' Seller@LaptopMarket.test')).toBe(true)
    expect(sameEmail('seller@laptopmarket.test', 'seller2@laptopmarket.test')).toBe(false)
  })
})
