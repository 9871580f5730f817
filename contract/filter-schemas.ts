import { z } from 'zod'
import {
  DOLLARS_MAX,
  FILTER_KEYS,
  type FILTERS,
  type FilterKey,
  type FilterParam,
  filterOf,
  LIST_MAX,
  type ParamItem,
  type ParamValue,
  PROCESSOR_FAMILIES,
} from './filters'
import { unsetWhenEmpty, wholeNumber } from './paging'
import { formatCount } from './plural'

// The API's schema of each filter's query parameter, built from its declaration (contract/filters.ts `param`). The
// page reads the same parameters with `readParam` there, without this file's schema library.

export const ProcessorFamily = z.enum(PROCESSOR_FAMILIES)

function itemSchema(item: ParamItem): z.ZodType {
  switch (item.kind) {
    case 'id':
      return z.uuid({ message: 'Must be a valid id' })
    case 'word':
      return z.enum(item.of as readonly [string, ...string[]])
    case 'whole':
      return wholeNumber(item.min, item.max, item.label)
  }
}

/** A parameter's schema; an empty value leaves the filter unset. */
export function paramSchema(param: FilterParam): z.ZodType {
  switch (param.kind) {
    case 'list': {
      const max = param.max ?? LIST_MAX
      return z.preprocess((v) => {
        if (v === undefined || v === null) return undefined
        const parts = (Array.isArray(v) ? v : [v])
          .flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]))
          .map((x) => (typeof x === 'string' ? x.trim() : x))
          .filter((x) => x !== '')
        return parts.length === 0 ? undefined : parts
      }, z.array(itemSchema(param.item)).max(max, `At most ${max} choices`).optional())
    }
    case 'dollars':
      return unsetWhenEmpty(
        z.coerce
          .number({ error: `${param.label} must be a number` })
          .min(0, `${param.label} cannot be negative`)
          .max(DOLLARS_MAX, `${param.label} must be at most ${formatCount(DOLLARS_MAX)}`),
      )
    case 'whole':
      return unsetWhenEmpty(wholeNumber(param.min, param.max, param.label))
  }
}

/** The query parameters of the filters, with their contract types, in the table's order. */
export const filterFields = Object.fromEntries(
  FILTER_KEYS.map((key) => [key, paramSchema(filterOf(key).param)]),
) as {
  [K in FilterKey]: z.ZodOptional<z.ZodType<ParamValue<(typeof FILTERS)[K]['param']>, unknown>>
}
