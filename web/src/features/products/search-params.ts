import type { ProductFilters } from './products-api'

export const CONDITIONS = ['Excellent', 'Good', 'Fair'] as const
export const SORTS = [
  { value: 'newest', label: 'Newest first' },
  { value: 'price_asc', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
] as const
export const RAM_CHOICES = [8, 16, 32, 64] as const
export const STORAGE_CHOICES = [256, 512, 1024, 2048] as const

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function toNumber(value: string | null, { min = 0, integer = false } = {}): number | undefined {
  if (value === null || value.trim() === '') return undefined
  const n = Number(value)
  if (!Number.isFinite(n) || n < min) return undefined
  return integer ? Math.floor(n) : n
}

/**
 * Reads the browse filters from the URL. Anything the server would refuse is dropped here, so a
 * hand-edited or stale link still shows results instead of an error.
 */
export function readFilters(params: URLSearchParams): ProductFilters {
  const filters: ProductFilters = {}
  const q = params.get('q')?.trim().slice(0, 100)
  if (q) filters.q = q
  const brand = params.get('brand')
  if (brand && UUID.test(brand)) filters.brand = brand
  const condition = params.get('condition')
  if (condition && (CONDITIONS as readonly string[]).includes(condition)) filters.condition = condition
  const minRam = toNumber(params.get('min_ram_gb'), { integer: true })
  if (minRam !== undefined && minRam <= 1024) filters.min_ram_gb = minRam
  const minStorage = toNumber(params.get('min_storage_gb'), { integer: true })
  if (minStorage !== undefined && minStorage <= 65536) filters.min_storage_gb = minStorage
  const maxPrice = toNumber(params.get('max_price'))
  if (maxPrice !== undefined && maxPrice <= 1_000_000) filters.max_price = maxPrice
  const sort = params.get('sort')
  if (sort && SORTS.some((s) => s.value === sort) && sort !== 'newest') filters.sort = sort
  const page = toNumber(params.get('page'), { min: 1, integer: true })
  if (page !== undefined && page > 1 && page <= 10_000) filters.page = page
  return filters
}

/** The URL query for a set of filters, in a stable order, leaving defaults out. */
export function writeFilters(filters: ProductFilters): URLSearchParams {
  const params = new URLSearchParams()
  const order: (keyof ProductFilters)[] = [
    'q',
    'brand',
    'condition',
    'min_ram_gb',
    'min_storage_gb',
    'max_price',
    'sort',
    'page',
  ]
  for (const key of order) {
    const value = filters[key]
    if (value === undefined || value === '') continue
    if (key === 'sort' && value === 'newest') continue
    if (key === 'page' && value === 1) continue
    params.set(key, String(value))
  }
  return params
}

export function hasActiveFilters(filters: ProductFilters): boolean {
  return Object.keys(filters).some((key) => key !== 'page' && key !== 'sort')
}
