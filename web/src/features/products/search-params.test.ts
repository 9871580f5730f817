import { describe, expect, it } from 'vitest'
import type { ProductFilters } from './products-api'
import {
  clearedFilters,
  countActiveFilters,
  hasActiveFilters,
  readFilters,
  withChange,
  writeFilters,
} from './search-params'

const BRAND = '0b8f3c6e-7a52-4f4e-9d0a-2a1c5b7e9f10'

describe('browse filters in the URL', () => {
  it('reads every filter, and drops what the server would refuse', () => {
    const params = new URLSearchParams(
      `q=%20thinkpad%20&brand=${BRAND}&condition=Good&min_price=200&max_price=799.5&ram=16` +
        '&storage=512&screen=14&processor=amd-ryzen-7&posted_within=7&min_battery_pct=80&min_ram_gb=8&sort=price_asc' +
        '&page_size=12&cursor=eyJrIjoxfQ&page=2',
    )
    expect(readFilters(params)).toEqual({
      q: 'thinkpad',
      brand: BRAND,
      condition: 'Good',
      min_price: 200,
      max_price: 799.5,
      ram: 16,
      storage: 512,
      screen: 14,
      processor: 'amd-ryzen-7',
      posted_within: 7,
      min_battery_pct: 80,
      min_ram_gb: 8,
      sort: 'price_asc',
      page_size: 12,
      cursor: 'eyJrIjoxfQ',
      page: 2,
    })
    expect(
      readFilters(
        new URLSearchParams(
          'brand=nope&condition=Mint&ram=-1&ram=12&max_price=abc&screen=99&processor=pentium' +
            '&posted_within=0&min_battery_pct=140&sort=x&page=0&page_size=1000&cursor=%3Cscript%3E',
        ),
      ),
    ).toEqual({})
  })

  it('reads each filter by the search API rule for it (contract/search.ts), one choice per filter', () => {
    expect(
      readFilters(new URLSearchParams('condition=Fair,Good&ram=32,16&screen=%2013%20&min_price=1e3')),
    ).toEqual({
      condition: 'Fair',
      ram: 32,
      screen: 13,
      min_price: 1000,
    })
    // What the API refuses (a price past its ceiling, a fractional RAM size) is dropped, as the API would answer 400.
    expect(readFilters(new URLSearchParams('max_price=1000001&ram=8.5'))).toEqual({})
  })

  it('writes a stable, default-free query that reads back the same', () => {
    const filters: ProductFilters = { sort: 'newest', page: 1, q: 'mac', condition: 'Fair' }
    // With text the default order is best match, so "newest" is a choice and stays.
    expect(writeFilters(filters).toString()).toBe('q=mac&condition=Fair&sort=newest')
    expect(writeFilters({ sort: 'newest', condition: 'Fair' }).toString()).toBe('condition=Fair')
    const all: ProductFilters = {
      q: 'dell',
      storage: 512,
      processor: 'intel-core-i7',
      min_price: 100,
      page: 3,
    }
    expect(readFilters(writeFilters(all))).toEqual(all)
  })

  it('offers best match only with text, and as the default then', () => {
    expect(readFilters(new URLSearchParams('sort=relevance'))).toEqual({})
    expect(readFilters(new URLSearchParams('q=x1&sort=relevance'))).toEqual({ q: 'x1' })
    expect(withChange({ q: 'x1', sort: 'relevance' }, { q: undefined })).toEqual({
      q: undefined,
      sort: undefined,
      page: undefined,
      cursor: undefined,
    })
  })

  it('a change of filter goes back to the first page; clearing keeps the order', () => {
    const next = withChange(
      { condition: 'Good', page: 4, cursor: 'abc', sort: 'price_asc' },
      { min_ram_gb: 16 },
    )
    expect(writeFilters(next).toString()).toBe('condition=Good&min_ram_gb=16&sort=price_asc')
    expect(clearedFilters({ condition: 'Good', q: 'hp', sort: 'price_desc', page: 2 })).toEqual({
      sort: 'price_desc',
      page_size: undefined,
    })
  })

  it('knows when and how much a filter narrows the list', () => {
    expect(hasActiveFilters({ sort: 'price_desc', page: 2, cursor: 'x', page_size: 12 })).toBe(false)
    expect(hasActiveFilters({ condition: 'Good' })).toBe(true)
    expect(countActiveFilters({ condition: 'Good', processor: 'apple-m', sort: 'newest' })).toBe(2)
  })
})
