import { Search } from 'lucide-react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { Brand } from '#contract/brands'
import { formatStorage } from '../../lib/format'
import type { ProductFilters as Filters } from './products-api'
import { CONDITIONS, RAM_CHOICES, SORTS, STORAGE_CHOICES } from './search-params'

const TYPING_DELAY_MS = 400

const fieldClasses =
  'block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 ' +
  'shadow-sm focus-visible:border-accent sm:text-sm'
const labelClasses = 'mb-1 block font-medium text-slate-800 text-sm'

type ProductFiltersProps = {
  filters: Filters
  brands: Brand[] | undefined
  /** `replace` for changes made while typing, so each keystroke is not a history entry. */
  onChange: (next: Filters, options?: { replace?: boolean }) => void
}

/** The filters with the search text and price limit as typed, back on the first page. */
function withTypedValues(filters: Filters, q: string, maxPrice: string): Filters {
  const price = maxPrice.trim() === '' ? undefined : Number(maxPrice)
  return {
    ...filters,
    q: q.trim() || undefined,
    max_price: price !== undefined && Number.isFinite(price) && price >= 0 ? price : undefined,
    page: undefined,
  }
}

/** The browse filters. Selects apply at once; typed values apply after a short pause or on Enter. */
export function ProductFilters({ filters, brands, onChange }: ProductFiltersProps) {
  const id = useId()
  const [q, setQ] = useState(filters.q ?? '')
  const [maxPrice, setMaxPrice] = useState(filters.max_price?.toString() ?? '')
  const latest = useRef(filters)
  latest.current = filters
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange

  // Follow the URL when it changes from outside (back button, "Clear filters").
  useEffect(() => setQ(filters.q ?? ''), [filters.q])
  useEffect(() => setMaxPrice(filters.max_price?.toString() ?? ''), [filters.max_price])

  useEffect(() => {
    const next = withTypedValues(latest.current, q, maxPrice)
    if (next.q === latest.current.q && next.max_price === latest.current.max_price) return
    const timer = window.setTimeout(() => onChangeRef.current(next, { replace: true }), TYPING_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [q, maxPrice])

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    onChange(withTypedValues(latest.current, q, maxPrice))
  }

  function setFilter(key: keyof Filters, value: string) {
    const parsed = key === 'min_ram_gb' || key === 'min_storage_gb' ? Number(value) : value
    onChange({ ...latest.current, [key]: value === '' ? undefined : parsed, page: undefined })
  }

  return (
    <form
      aria-label="Filter laptops"
      onSubmit={onSubmit}
      className="grid grid-cols-2 gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 lg:grid-cols-7"
    >
      <div className="col-span-2 sm:col-span-3 lg:col-span-2">
        <label htmlFor={`${id}-q`} className={labelClasses}>
          Search
        </label>
        <div className="relative">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-3 left-3 size-5 text-slate-500"
          />
          <input
            id={`${id}-q`}
            type="search"
            name="q"
            value={q}
            maxLength={100}
            placeholder="Model, processor or brand"
            onChange={(e) => setQ(e.target.value)}
            className={`${fieldClasses} pl-10`}
          />
        </div>
      </div>

      <div>
        <label htmlFor={`${id}-brand`} className={labelClasses}>
          Brand
        </label>
        <select
          id={`${id}-brand`}
          value={filters.brand ?? ''}
          onChange={(e) => setFilter('brand', e.target.value)}
          className={fieldClasses}
        >
          <option value="">All brands</option>
          {brands?.map((b) => (
            <option key={b._id} value={b._id}>
              {b.brand_name}
            </option>
          ))}
        </select>
      </div>

      <div>
        <label htmlFor={`${id}-condition`} className={labelClasses}>
          Condition
        </label>
        <select
          id={`${id}-condition`}
          value={filters.condition ?? ''}
          onChange={(e) => setFilter('condition', e.target.value)}
          className={fieldClasses}
        >
          <option value="">Any condition</option>
          {CONDITIONS.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>

      <div>
        <label htmlFor={`${id}-ram`} className={labelClasses}>
          Minimum RAM
        </label>
        <select
          id={`${id}-ram`}
          value={filters.min_ram_gb?.toString() ?? ''}
          onChange={(e) => setFilter('min_ram_gb', e.target.value)}
          className={fieldClasses}
        >
          <option value="">Any RAM</option>
          {RAM_CHOICES.map((gb) => (
            <option key={gb} value={gb}>
              {gb} GB or more
            </option>
          ))}
        </select>
      </div>

      <div>
        <label htmlFor={`${id}-storage`} className={labelClasses}>
          Minimum storage
        </label>
        <select
          id={`${id}-storage`}
          value={filters.min_storage_gb?.toString() ?? ''}
          onChange={(e) => setFilter('min_storage_gb', e.target.value)}
          className={fieldClasses}
        >
          <option value="">Any storage</option>
          {STORAGE_CHOICES.map((gb) => (
            <option key={gb} value={gb}>
              {formatStorage(gb)} or more
            </option>
          ))}
        </select>
      </div>

      <div>
        <label htmlFor={`${id}-price`} className={labelClasses}>
          Max price ($)
        </label>
        <input
          id={`${id}-price`}
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          value={maxPrice}
          placeholder="No limit"
          onChange={(e) => setMaxPrice(e.target.value)}
          className={fieldClasses}
        />
      </div>

      {/* Enter in a text field submits; the button is for assistive tech and form semantics. */}
      <button type="submit" className="sr-only">
        Apply filters
      </button>
    </form>
  )
}

/** Sort order for the result list; sits beside the result count. */
export function SortSelect({
  value,
  onChange,
}: {
  value: string | undefined
  onChange: (sort: string) => void
}) {
  const id = useId()
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="shrink-0 font-medium text-slate-800 text-sm">
        Sort by
      </label>
      <select
        id={id}
        value={value ?? 'newest'}
        onChange={(e) => onChange(e.target.value)}
        className={fieldClasses}
      >
        {SORTS.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </select>
    </div>
  )
}
