import { Search } from 'lucide-react'
import { type ReactNode, useEffect, useId, useRef, useState } from 'react'
import type { Brand } from '#contract/brands'
import { FACETS, FILTER_KEYS, type FilterKey, offeredChoices } from '#contract/filters'
import type { FacetChoice, Facets } from '#contract/search'
import { formatCount } from '../../lib/format'
import { useOnChange, useTypedBeforeLive } from '../../lib/server-fields'
import type { ProductFilters as Filters } from './products-api'
import { parseFilter, SORTS, withChange } from './search-params'

const TYPING_DELAY_MS = 400

const fieldClasses =
  'block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 ' +
  'shadow-sm focus-visible:border-accent sm:text-sm'
const labelClasses = 'mb-1 block font-medium text-slate-800 text-sm'

type Choice<T> = { value: T; label: string; count?: number }

/**
 * A filter's choices: the server's facet (each with its count; choices with no listing left out) once
 * it has answered, the usual ones before. The choice in force always stays, so it can be seen and undone.
 */
function choicesOf<T extends string | number>(
  facet: FacetChoice[] | undefined,
  fallback: readonly { value: string; label: string }[],
  parse: (value: string) => T | undefined,
  selected: T | undefined,
): Choice<T>[] {
  const read = (c: { value: string; label: string; count?: number }) => {
    const value = parse(c.value)
    return value === undefined ? [] : [{ value, label: c.label, count: c.count }]
  }
  const known = fallback.flatMap(read)
  const choices: Choice<T>[] = facet ? facet.flatMap(read) : known
  if (selected !== undefined && !choices.some((c) => c.value === selected)) {
    const label = known.find((c) => c.value === selected)?.label
    choices.push({ value: selected, label: label ?? String(selected), count: facet ? 0 : undefined })
  }
  return choices
}

/** The facets declared before the price come before its fields, as the table orders them. */
const beforePrice = (key: FilterKey) => FILTER_KEYS.indexOf(key) < FILTER_KEYS.indexOf('min_price')

type FiltersProps = {
  filters: Filters
  brands: Brand[] | undefined
  facets?: Facets
  /** `replace` for changes made while typing, so each keystroke is not a history entry. */
  onChange: (next: Filters, options?: { replace?: boolean }) => void
}

/** A number typed into a field, or undefined when empty or not a number. */
function typedNumber(text: string): number | undefined {
  if (text.trim() === '') return undefined
  const n = Number(text)
  return Number.isFinite(n) && n >= 0 ? n : undefined
}

/** The typed values (search text, prices) as the filters would hold them. */
function withTyped(filters: Filters, typed: { q: string; min: string; max: string }): Filters {
  return withChange(filters, {
    q: typed.q.trim() || undefined,
    min_price: typedNumber(typed.min),
    max_price: typedNumber(typed.max),
  })
}

/**
 * Every filter of the browse page. Choices apply at once; typed values (text, prices) after a short
 * pause or on Enter. Each choice shows how many laptops it would leave, when the server counts them.
 */
export function ProductFilters({ filters, brands, facets, onChange }: FiltersProps) {
  const id = useId()
  const [typed, setTyped] = useState({
    q: filters.q ?? '',
    min: filters.min_price?.toString() ?? '',
    max: filters.max_price?.toString() ?? '',
  })
  const latest = useRef(filters)
  latest.current = filters
  const onChangeRef = useRef(onChange)
  onChangeRef.current = onChange

  // Follow the URL when it changes from outside (Back, "Clear filters", the navbar's search box).
  useOnChange(filters.q, (q) => setTyped((t) => ({ ...t, q: q ?? '' })))
  useOnChange(filters.min_price, (min) => setTyped((t) => ({ ...t, min: min?.toString() ?? '' })))
  useOnChange(filters.max_price, (max) => setTyped((t) => ({ ...t, max: max?.toString() ?? '' })))

  // What was typed or picked before the page went live: typed values apply after the usual pause, a brand at once.
  // Only a brand picked, not emptied: an empty value may just be the brand in force missing from a list not loaded yet.
  const qRef = useRef<HTMLInputElement>(null)
  const minRef = useRef<HTMLInputElement>(null)
  const maxRef = useRef<HTMLInputElement>(null)
  const brandRef = useRef<HTMLSelectElement>(null)
  const set = (change: Partial<Filters>) => onChange(withChange(latest.current, change))
  useTypedBeforeLive(qRef, typed.q, (q) => setTyped((t) => ({ ...t, q })))
  useTypedBeforeLive(minRef, typed.min, (min) => setTyped((t) => ({ ...t, min })))
  useTypedBeforeLive(maxRef, typed.max, (max) => setTyped((t) => ({ ...t, max })))
  useTypedBeforeLive(brandRef, filters.brand ?? '', (brand) => {
    if (brand) set({ brand })
  })

  useEffect(() => {
    const next = withTyped(latest.current, typed)
    const now = latest.current
    if (next.q === now.q && next.min_price === now.min_price && next.max_price === now.max_price) return
    const timer = window.setTimeout(() => onChangeRef.current(next, { replace: true }), TYPING_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [typed])

  const brandCount = (id: string) => {
    const n = facets?.brand.find((c) => c.value === id)?.count
    return facets ? ` (${formatCount(n ?? 0)})` : ''
  }
  /** A facet of choices (every one but the brand's list), as radio buttons, where the table puts it. */
  const facetChoices = (f: (typeof FACETS)[number]) => {
    const key = f.key as Exclude<FilterKey, 'brand'>
    const parse = (value: string) => parseFilter(key, value) as string | number | undefined
    return (
      <Choices
        key={key}
        legend={f.legend}
        name={`${id}-${f.name}`}
        value={filters[key] as string | number | undefined}
        anyLabel={f.any}
        choices={choicesOf(
          facets?.[f.name],
          offeredChoices(key),
          parse,
          filters[key] as string | number | undefined,
        )}
        showCounts={Boolean(facets)}
        onPick={(value) => set({ [key]: value })}
      />
    )
  }

  return (
    <form
      aria-label="Filter laptops"
      onSubmit={(event) => {
        event.preventDefault()
        onChange(withTyped(latest.current, typed))
      }}
      className="space-y-5"
    >
      <div>
        <label htmlFor={`${id}-q`} className={labelClasses}>
          Search
        </label>
        <div className="relative">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-3 left-3 size-5 text-slate-500"
          />
          <input
            ref={qRef}
            id={`${id}-q`}
            type="search"
            name="q"
            value={typed.q}
            maxLength={100}
            placeholder="Model, processor or brand"
            onChange={(e) => setTyped((t) => ({ ...t, q: e.target.value }))}
            className={`${fieldClasses} pl-10`}
          />
        </div>
      </div>

      <div>
        <label htmlFor={`${id}-brand`} className={labelClasses}>
          Brand
        </label>
        <select
          ref={brandRef}
          id={`${id}-brand`}
          value={filters.brand ?? ''}
          onChange={(e) => set({ brand: e.target.value || undefined })}
          className={fieldClasses}
        >
          <option value="">All brands</option>
          {brands?.map((b) => (
            <option key={b._id} value={b._id}>
              {b.brand_name}
              {brandCount(b._id)}
            </option>
          ))}
        </select>
      </div>

      {FACETS.filter((f) => f.key !== 'brand' && beforePrice(f.key)).map(facetChoices)}

      <fieldset>
        <legend className={labelClasses}>Price ($)</legend>
        <div className="grid grid-cols-2 gap-2">
          <div>
            <label htmlFor={`${id}-min`} className="mb-1 block text-slate-700 text-xs">
              Min price
            </label>
            <input
              ref={minRef}
              id={`${id}-min`}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              value={typed.min}
              placeholder="Any"
              onChange={(e) => setTyped((t) => ({ ...t, min: e.target.value }))}
              className={fieldClasses}
            />
          </div>
          <div>
            <label htmlFor={`${id}-max`} className="mb-1 block text-slate-700 text-xs">
              Max price
            </label>
            <input
              ref={maxRef}
              id={`${id}-max`}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              value={typed.max}
              placeholder="Any"
              onChange={(e) => setTyped((t) => ({ ...t, max: e.target.value }))}
              className={fieldClasses}
            />
          </div>
        </div>
      </fieldset>

      {FACETS.filter((f) => f.key !== 'brand' && !beforePrice(f.key)).map(facetChoices)}

      {/* Enter in a text field submits; the button is for assistive tech and form semantics. */}
      <button type="submit" className="sr-only">
        Apply filters
      </button>
    </form>
  )
}

type ChoicesProps<T extends string | number> = {
  legend: string
  name: string
  value: T | undefined
  anyLabel: string
  choices: Choice<T>[]
  /** The server has counted the choices: show "(1,204)" beside each. */
  showCounts: boolean
  onPick: (value: T | undefined) => void
}

/** One filter as radio buttons: "Any" first, then each choice with its count. */
function Choices<T extends string | number>({
  legend,
  name,
  value,
  anyLabel,
  choices,
  showCounts,
  onPick,
}: ChoicesProps<T>) {
  // The pick shows at once, while the address (and so `value`) catches up in a transition.
  const [picked, setPicked] = useState<{ value: T | undefined } | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new value from the address ends the pick
  useEffect(() => setPicked(null), [value])
  const current = picked ? picked.value : value
  const pick = (next: T | undefined) => {
    setPicked({ value: next })
    onPick(next)
  }
  return (
    <fieldset>
      <legend className={labelClasses}>{legend}</legend>
      <div className="space-y-0.5">
        <Radio name={name} checked={current === undefined} onPick={() => pick(undefined)}>
          {anyLabel}
        </Radio>
        {choices.map((choice) => (
          <Radio
            key={String(choice.value)}
            name={name}
            checked={current === choice.value}
            onPick={() => pick(choice.value)}
            muted={choice.count === 0}
          >
            {choice.label}
            {showCounts && choice.count !== undefined ? (
              <span className="text-slate-600"> ({formatCount(choice.count)})</span>
            ) : null}
          </Radio>
        ))}
      </div>
    </fieldset>
  )
}

function Radio({
  name,
  checked,
  onPick,
  muted = false,
  children,
}: {
  name: string
  checked: boolean
  onPick: () => void
  muted?: boolean
  children: ReactNode
}) {
  return (
    <label
      className={`flex min-h-9 cursor-pointer items-center gap-2 rounded-md px-1 text-sm ${muted ? 'text-slate-500' : 'text-slate-800'} hover:bg-slate-50`}
    >
      <input type="radio" name={name} checked={checked} onChange={onPick} className="size-4 accent-accent" />
      <span>{children}</span>
    </label>
  )
}

/** Sort order for the result list; "Best match" only when there is text to match. */
export function SortSelect({
  value,
  hasText,
  onChange,
}: {
  value: string
  hasText: boolean
  onChange: (sort: string) => void
}) {
  const id = useId()
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="shrink-0 font-medium text-slate-800 text-sm">
        Sort by
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={fieldClasses}>
        {SORTS.filter((s) => hasText || s.value !== 'relevance').map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </select>
    </div>
  )
}
