import type { FastifySchemaCompiler } from 'fastify'
import { validatorCompiler } from 'fastify-type-provider-zod'
import type { ZodType } from 'zod'

type Checked = { value: unknown } | { error: Error }

function isEmpty(data: unknown): boolean {
  if (data === undefined || data === null) return true
  if (typeof data !== 'object') return false
  for (const _ in data) return false
  return true
}

/** An object whose values are all strings, numbers, booleans or undefined: a shallow copy is a whole one. */
function isFlat(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  return Object.values(value).every((v) => v === undefined || v === null || typeof v !== 'object')
}

/**
 * The contract's zod schemas check every part of a request, with one shortcut: most reads come with no query string
 * at all (a brand's first page, the lists), and a query schema's answer to an empty query is always the same, so it
 * is worked out once per route, when the route is made, and such a request gets its own copy of it. Any query given
 * is checked in full, as is an empty one whose schema refuses it or whose answer holds objects.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> = (route) => {
  const validate = validatorCompiler(route) as (data: unknown) => Checked
  if (route.httpPart !== 'querystring') return validate
  const empty = validate({})
  if (!('value' in empty) || !isFlat(empty.value)) return validate
  const value = empty.value
  return (data: unknown) => (isEmpty(data) ? { value: { ...value } } : validate(data))
}
