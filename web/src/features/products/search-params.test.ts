import { describe, expect, it } from 'vitest'
import { hasActiveFilters, readFilters, writeFilters } from './search-params'

const BRAND = '0b8f3c6e-7a52-4f4e-9d0a-2a1c5b7e9f10'

describe('browse filters in the URL', () => {
  it('reads valid filters and drops what the server would refuse', () => {
    const params = new URLSearchParams(
      `q=%20thinkpad%20&brand=${BRAND}&condition=Good&min_ram_gb=16&max_price=799.5&sort=price_asc&page=2`,
    )
    expect(readFilters(params)).toEqual({
      q: 'thinkpad',
      brand: BRAND,
      condition: 'Good',
      min_ram_gb: 16,
      max_price: 799.5,
      sort: 'price_asc',
      page: 2,
    })
    expect(
      readFilters(new URLSearchParams('brand=nope&condition=Mint&min_ram_gb=-1&max_price=abc&sort=x&page=0')),
    ).toEqual({})
  })

  it('writes a stable, default-free query that reads back the same', () => {
    const filters = { sort: 'newest', page: 1, q: 'mac', condition: 'Fair' }
    expect(writeFilters(filters).toString()).toBe('q=mac&condition=Fair')
    expect(readFilters(writeFilters({ q: 'dell', min_storage_gb: 512, page: 3 }))).toEqual({
      q: 'dell',
      min_storage_gb: 512,
      page: 3,
    })
  })

  it('knows when a filter narrows the list', () => {
    expect(hasActiveFilters({ sort: 'price_desc', page: 2 })).toBe(false)
    expect(hasActiveFilters({ condition: 'Good' })).toBe(true)
  })
})
