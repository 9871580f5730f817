import { CONDITIONS } from './conditions'
import { formatMoney } from './money'
import { TOTAL_THRESHOLD } from './paging-limits'
import { storageLabel } from './units'

// Every filter of a search, declared once as data: its query parameter and contract type, the column it reads, its
// operator, and whether and how it is a facet (its label, choices, order). Everything else is derived from this
// table: the search's query schema and facets (contract/search.ts), the SQL condition, the copy's columns, the alert
// test and a saved search's words (server/modules/search/filters.ts), and the page's filter parameters and panel
// (web/src/features/products). A new facet filter is one row here (plus a migration when its
// column is new): docs/decisions/0079-filters-as-data.md.
//
// The table holds no schema objects, so a page can read it without the schema library: a parameter is declared as
// data (`param`), the API's schema is built from it (filter-schemas.ts) and the page reads a value with `readParam`
// below; a test holds the two to the same answers (docs/decisions/0095-filters-read-without-schemas.md).

/** Processor families a buyer filters by; each listing's family is derived from its processor text. */
export const PROCESSOR_FAMILIES = [
  'intel-core-i3',
  'intel-core-i5',
  'intel-core-i7',
  'intel-core-i9',
  'amd-ryzen-3',
  'amd-ryzen-5',
  'amd-ryzen-7',
  'amd-ryzen-9',
  'apple-m',
] as const
export type ProcessorFamily = (typeof PROCESSOR_FAMILIES)[number]

export const PROCESSOR_FAMILY_LABELS: Record<ProcessorFamily, string> = {
  'intel-core-i3': 'Intel Core i3',
  'intel-core-i5': 'Intel Core i5',
  'intel-core-i7': 'Intel Core i7',
  'intel-core-i9': 'Intel Core i9',
  'amd-ryzen-3': 'AMD Ryzen 3',
  'amd-ryzen-5': 'AMD Ryzen 5',
  'amd-ryzen-7': 'AMD Ryzen 7',
  'amd-ryzen-9': 'AMD Ryzen 9',
  'apple-m': 'Apple M-series',
}

/** The battery health the page offers as one choice: "Battery 80% or more". */
export const BATTERY_FACET_PCT = 80

/** "Posted within" choices shown on the page; any whole number of days from 1 to 3650 is accepted. */
export const POSTED_WITHIN_DAYS = [1, 7, 30, 90] as const

/** A price filter's amount in words: dollars as every price is written ("$1,500", "$19.90"). */
const money = (dollars: number) => formatMoney(Math.round(dollars * 100))

/** One choice of a list parameter: an id (a UUID), one of a list of words, or a whole number in a range. */
export type ParamItem =
  | { kind: 'id' }
  | { kind: 'word'; of: readonly string[] }
  | { kind: 'whole'; min: number; max: number; label: string }

/**
 * A filter's query parameter, as data:
 * - `list`: one or more choices, `brand=a,b` or `brand=a&brand=b` (either form; empty parts ignored), at most `max`
 *   (default 20). Choices of one filter are alternatives (OR); different filters all apply (AND).
 * - `dollars`: an amount from 0 to 1,000,000.
 * - `whole`: one whole number from `min` to `max`.
 * An empty value leaves the filter unset.
 */
export type FilterParam =
  | { kind: 'list'; item: ParamItem; max?: number }
  | { kind: 'dollars'; label: string }
  | { kind: 'whole'; min: number; max: number; label: string }

/** Most choices a list parameter takes unless it says otherwise. */
export const LIST_MAX = 20
/** The highest amount a `dollars` parameter takes. */
export const DOLLARS_MAX = 1_000_000

const listOf = <I extends ParamItem>(item: I, max?: number) => ({ kind: 'list', item, max }) as const
const wordOf = <const W extends readonly string[]>(of: W) => ({ kind: 'word', of }) as const
const whole = (min: number, max: number, label: string) => ({ kind: 'whole', min, max, label }) as const
const dollars = (label: string) => ({ kind: 'dollars', label }) as const

/** What a parameter's value is once read: a list's choices (words as their own type), or a number. */
export type ParamValue<P extends FilterParam> = P extends { kind: 'list'; item: infer I }
  ? (I extends { kind: 'word'; of: readonly (infer W)[] }
      ? W
      : I extends { kind: 'whole' }
        ? number
        : string)[]
  : number

/** A UUID of any version, as the API's id check takes it. */
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/

/** A text's number as the API coerces it (`Number`), when finite. */
function numberOf(raw: string): number | undefined {
  const n = Number(raw)
  return Number.isFinite(n) ? n : undefined
}

const wholeIn = (raw: string, min: number, max: number) => {
  const n = numberOf(raw)
  return n !== undefined && Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined
}

function readItem(item: ParamItem, raw: string): string | number | undefined {
  switch (item.kind) {
    case 'id':
      return UUID.test(raw) ? raw : undefined
    case 'word':
      return item.of.includes(raw) ? raw : undefined
    case 'whole':
      return wholeIn(raw, item.min, item.max)
  }
}

/**
 * A query value read as the API reads it (filter-schemas.ts builds the API's schema from the same `param`), without
 * the schema library: `undefined` when it is unset or when the API would refuse it. A list's choices come as a list.
 */
export function readParam(param: FilterParam, raw: string | readonly string[]): unknown {
  if (param.kind === 'list') {
    const parts = (typeof raw === 'string' ? [raw] : raw)
      .flatMap((x) => x.split(','))
      .map((x) => x.trim())
      .filter((x) => x !== '')
    if (parts.length === 0 || parts.length > (param.max ?? LIST_MAX)) return undefined
    const values = parts.map((p) => readItem(param.item, p))
    return values.includes(undefined) ? undefined : values
  }
  if (typeof raw !== 'string' || raw === '') return undefined
  if (param.kind === 'whole') return wholeIn(raw, param.min, param.max)
  const n = numberOf(raw)
  return n !== undefined && n >= 0 && n <= DOLLARS_MAX ? n : undefined
}

/** A range of a column's values that is one choice: from the previous bucket's `below` (or any) up to `below`. */
export type Bucket = { value: string; label: string; below?: number }

/** How a facet offers and orders its choices. */
export type FacetDeclaration = {
  /** Its key in the answer's `facets`. */
  name: string
  /** The filter panel's heading, and its "any" choice. */
  legend: string
  any: string
  /** A choice's label from its value (default: the value); `names`: the brands' names by id. */
  label?: (value: string, names: ReadonlyMap<string, string>) => string
  /** Choices by most listings (`count`), in `choices`' order (`listed`), by number or by text (default). */
  order?: 'count' | 'listed' | 'number' | 'text'
  /** The choices the page offers before the server has counted them; `listed` orders by them. */
  choices?: readonly (string | number)[]
  /** A choice's count is said up to TOTAL_THRESHOLD. */
  capped?: boolean
}

/**
 * One filter. `column` is a column of `products` (its name in server/db/schema.ts). Operators:
 * - `in`: one or more choices; a listing's choice is the column's value, its whole number (`whole`: 13 is 13.0 to
 *   13.9), or its bucket.
 * - `atLeast` / `atMost`: the column against the value (times `scale`); a listing with no value fails.
 * - `withinDays`: the column is a time no more than that many days ago.
 */
export type FilterDeclaration = {
  /** The query parameter (optional: a search need not set it); its contract type is built from this. */
  param: FilterParam
  column: string
  op: 'in' | 'atLeast' | 'atMost' | 'withinDays'
  /** For `in`: how a listing's value becomes a choice (default: itself). */
  values?: 'whole' | readonly Bucket[]
  /** The value as the column holds it (dollars as cents: 100). */
  scale?: number
  /** For a bound the copy tests per listing: its array in the copy (server/modules/search/listing-facts.ts). */
  row?: 'price' | 'battery'
  facet?: FacetDeclaration
  /** The filter in a saved search's words (default for `in`: its choices' labels, joined by "or"). */
  words?: (
    value: never,
    all: Record<string, unknown>,
    names: ReadonlyMap<string, string>,
  ) => string | undefined
  /** A saved search lists it after the others (as saved searches have always spelled it). */
  savedLast?: boolean
}

const joinOr = (values: readonly (string | number)[]) => values.join(' or ')

/** The table. Its order is the order of the query's parameters, of the facets and of the filter panel. */
export const FILTERS = {
  brand: {
    param: listOf({ kind: 'id' }),
    column: 'brandId',
    op: 'in',
    facet: {
      name: 'brand',
      legend: 'Brand',
      any: 'All brands',
      label: (id, names) => names.get(id) ?? id,
      order: 'count',
    },
    words: (ids: string[], _all, names) => joinOr(ids.map((id) => names.get(id) ?? 'a brand')),
  },
  condition: {
    param: listOf(wordOf(CONDITIONS), 3),
    column: 'condition',
    op: 'in',
    facet: {
      name: 'condition',
      legend: 'Condition',
      any: 'Any condition',
      order: 'listed',
      choices: CONDITIONS,
    },
  },
  min_price: {
    param: dollars('Minimum price'),
    column: 'resalePriceCents',
    op: 'atLeast',
    scale: 100,
    row: 'price',
    words: (min: number, all) =>
      all.max_price !== undefined ? `${money(min)}–${money(all.max_price as number)}` : `from ${money(min)}`,
  },
  max_price: {
    param: dollars('Maximum price'),
    column: 'resalePriceCents',
    op: 'atMost',
    scale: 100,
    row: 'price',
    words: (max: number, all) => (all.min_price !== undefined ? undefined : `up to ${money(max)}`),
  },
  /** RAM in GB, one or more exact sizes (the facet's choices). */
  ram: {
    param: listOf(whole(1, 1024, 'RAM')),
    column: 'ramGb',
    op: 'in',
    facet: {
      name: 'ram',
      legend: 'RAM',
      any: 'Any RAM',
      label: (gb) => `${gb} GB`,
      order: 'number',
      choices: [8, 16, 32, 64],
    },
    words: (gb: number[]) => `${joinOr(gb)} GB RAM`,
  },
  /** Storage in GB, one or more exact sizes. */
  storage: {
    param: listOf(whole(1, 65_536, 'Storage')),
    column: 'storageGb',
    op: 'in',
    facet: {
      name: 'storage',
      legend: 'Storage',
      any: 'Any storage',
      label: (gb) => storageLabel(Number(gb)),
      order: 'number',
      choices: [256, 512, 1024, 2048],
    },
  },
  /** Screen size classes: `13` is 13.0 to 13.9 inches; 10 to 21. */
  screen: {
    param: listOf(whole(10, 21, 'Screen size')),
    column: 'screenInches',
    op: 'in',
    values: 'whole',
    facet: {
      name: 'screen',
      legend: 'Screen size',
      any: 'Any size',
      label: (inches) => `${inches}″`,
      order: 'number',
      choices: [13, 14, 15, 16, 17],
    },
    words: (classes: number[]) => `${joinOr(classes)}-inch`,
  },
  /** Screens in three buckets: compact (under 14 inches), standard (14 to 15.9), large (16 and up). */
  display: {
    param: listOf(wordOf(['compact', 'standard', 'large']), 3),
    column: 'screenInches',
    op: 'in',
    values: [
      { value: 'compact', label: 'Compact (under 14″)', below: 14 },
      { value: 'standard', label: 'Standard (14–15.9″)', below: 16 },
      { value: 'large', label: 'Large (16″ and up)' },
    ],
    facet: { name: 'display', legend: 'Display', any: 'Any display', order: 'listed' },
  },
  processor: {
    param: listOf(wordOf(PROCESSOR_FAMILIES), PROCESSOR_FAMILIES.length),
    column: 'processorFamily',
    op: 'in',
    facet: {
      name: 'processor',
      legend: 'Processor',
      any: 'Any processor',
      label: (family) => PROCESSOR_FAMILY_LABELS[family as ProcessorFamily] ?? family,
      order: 'text',
      choices: PROCESSOR_FAMILIES,
    },
  },
  /** Posted in the last N days. */
  posted_within: {
    param: whole(1, 3650, 'Posted within'),
    column: 'postedOn',
    op: 'withinDays',
    facet: {
      name: 'posted_within',
      legend: 'Posted within',
      any: 'Any time',
      label: (days) => (days === '1' ? 'Last 24 hours' : `Last ${days} days`),
      order: 'listed',
      choices: POSTED_WITHIN_DAYS,
    },
    words: (days: number) => `posted within ${days} days`,
    savedLast: true,
  },
  /** Battery health of at least this percentage (listings that report none are left out). */
  min_battery_pct: {
    param: whole(1, 100, 'Minimum battery health'),
    column: 'batteryHealthPct',
    op: 'atLeast',
    row: 'battery',
    facet: {
      name: 'battery',
      legend: 'Battery',
      any: 'Any battery',
      label: (pct) => `Battery ${pct}% or more`,
      order: 'listed',
      choices: [BATTERY_FACET_PCT],
      capped: true,
    },
    words: (pct: number) => `Battery ${pct}% or more`,
  },
  /** Kept from the earlier browse page: at least this much RAM / storage. */
  min_ram_gb: {
    param: whole(0, 1024, 'Minimum RAM'),
    column: 'ramGb',
    op: 'atLeast',
    words: (gb: number) => `at least ${gb} GB RAM`,
  },
  min_storage_gb: {
    param: whole(0, 65_536, 'Minimum storage'),
    column: 'storageGb',
    op: 'atLeast',
    words: (gb: number) => `at least ${storageLabel(gb)}`,
  },
} as const satisfies Record<string, FilterDeclaration>

export type FilterKey = keyof typeof FILTERS
export const FILTER_KEYS = Object.keys(FILTERS) as FilterKey[]

/** The declaration of a filter, as its general type. */
export const filterOf = (key: FilterKey): FilterDeclaration => FILTERS[key]

/** The facets, in the table's order: each with its filter's key. */
export type FacetName = {
  [K in FilterKey]: (typeof FILTERS)[K] extends { facet: { name: infer N } } ? N : never
}[FilterKey]
export const FACETS = FILTER_KEYS.flatMap((key) => {
  const facet = filterOf(key).facet
  return facet ? [{ key, ...facet, name: facet.name as FacetName }] : []
})

/** A facet choice's label. */
export function choiceLabel(
  facet: FacetDeclaration,
  value: string,
  names: ReadonlyMap<string, string>,
): string {
  return facet.label ? facet.label(value, names) : value
}

/** A listing's choice of an `in` filter from the column's value (undefined: none, e.g. no processor family). */
export function choiceOf(
  filter: FilterDeclaration,
  value: number | string | null,
): string | number | undefined {
  if (value === null || value === '') return undefined
  if (filter.values === 'whole') return Math.floor(Number(value))
  if (filter.values) {
    const n = Number(value)
    return filter.values.find((b) => b.below === undefined || n < b.below)?.value
  }
  return value
}

/** A facet's choices as the page offers them before counting: its declared choices or its buckets, labelled. */
export function offeredChoices(key: FilterKey): { value: string; label: string }[] {
  const filter = filterOf(key)
  const facet = filter.facet
  if (!facet) return []
  const values = facet.choices ?? (Array.isArray(filter.values) ? filter.values.map((b) => b.value) : [])
  return values.map((v) => ({ value: String(v), label: choiceLabel(facet, String(v), new Map()) }))
}

/** A facet's label of a choice, with buckets' own labels. */
export function labelOf(key: FilterKey, value: string, names: ReadonlyMap<string, string>): string {
  const filter = filterOf(key)
  const bucket = Array.isArray(filter.values) ? filter.values.find((b) => b.value === value) : undefined
  if (bucket) return bucket.label
  return filter.facet ? choiceLabel(filter.facet, value, names) : value
}

/** A facet's choices in its order. `capped`: counts said up to TOTAL_THRESHOLD. */
export function orderChoices<C extends { value: string; label: string; count: number }>(
  key: FilterKey,
  choices: C[],
): C[] {
  const filter = filterOf(key)
  const facet = filter.facet
  const order = facet?.order ?? 'text'
  const listed = (
    facet?.choices ?? (Array.isArray(filter.values) ? filter.values.map((b) => b.value) : [])
  ).map(String)
  const out = facet?.capped
    ? choices.map((c) => ({ ...c, count: Math.min(c.count, TOTAL_THRESHOLD) }))
    : choices
  return out.sort((a, b) => {
    switch (order) {
      case 'count':
        return b.count - a.count || a.label.localeCompare(b.label)
      case 'listed':
        return listed.indexOf(a.value) - listed.indexOf(b.value)
      case 'number':
        return Number(a.value) - Number(b.value)
      default:
        return a.value.localeCompare(b.value)
    }
  })
}
