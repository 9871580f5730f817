import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import type { ErrorBody, ErrorCode } from '#contract/errors'
import { AppError, RateLimited, STATUS_BY_CODE } from './errors'
import { acceptedEncoding, COMPRESS_FROM_BYTES, KeptJson } from './kept-json'

export function sendError(
  reply: FastifyReply,
  status: number,
  code: ErrorCode,
  message: string,
  fields?: Record<string, string>,
) {
  const body: ErrorBody = { error: fields ? { code, message, fields } : { code, message } }
  return reply.code(status).type('application/json').send(JSON.stringify(body))
}

/** The code for a status, read back from the one table that maps codes to statuses. */
const CODE_BY_STATUS = new Map(
  Object.entries(STATUS_BY_CODE).map(([code, status]) => [status, code as ErrorCode]),
)

function codeForStatus(status: number): ErrorCode {
  if (status >= 500) return 'INTERNAL'
  return CODE_BY_STATUS.get(status) ?? 'VALIDATION'
}

/**
 * Sends an already-serialized JSON body without serializing it again; a kept one (the public cache's KeptJson) as
 * the bytes kept for the encoding the client takes, or for none (the compression plugin leaves a body that says its
 * encoding alone, and one under its threshold).
 */
export function sendJson(reply: FastifyReply, body: string | Buffer | KeptJson) {
  // The charset said for every body: Fastify adds it to a string's type, not to bytes'.
  reply.type('application/json; charset=utf-8')
  if (!(body instanceof KeptJson)) return reply.send(body as never)
  reply.header('vary', 'accept-encoding')
  const encoding =
    body.bytes >= COMPRESS_FROM_BYTES ? acceptedEncoding(reply.request.headers['accept-encoding']) : undefined
  if (encoding) reply.header('content-encoding', encoding)
  return reply.send(body.sentAs(encoding))
}

/**
 * Errors Fastify raises before any route or hook runs, such as a path whose percent-encoding does
 * not decode: they get the same body shape as every other error instead of Fastify's own.
 */
export function frameworkErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_BAD_URL') return sendError(reply, 400, 'VALIDATION', 'Malformed URL')
  return errorHandler(err, req, reply)
}

/** PostgreSQL's SQLSTATE class 22 ("data exception"), from node-postgres or PGlite, wrapped by Drizzle or not. */
function isDataException(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 3; e = (e as Error).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true
  }
  return false
}

/** The one error handler: known outcomes keep their status; anything else is a logged 500 with no internals. */
export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    if (err instanceof RateLimited) reply.header('retry-after', String(err.retryAfterSeconds))
    return sendError(reply, err.status, err.code, err.message, err.fields)
  }

  if (hasZodFastifySchemaValidationErrors(err)) {
    // A Map, not an object literal: a field named `__proto__` must be reported, not set the prototype.
    const fields = new Map<string, string>()
    const note = (name: string, message: string) => {
      if (!fields.has(name)) fields.set(name, message)
    }
    for (const issue of err.validation) {
      const segments = issue.instancePath.replace(/^\//, '').split('/')
      // A query parameter is named as it appears in the URL: `brand`, not `brand.0` for one of its choices.
      const path = (err.validationContext === 'querystring' ? segments.slice(0, 1) : segments).join('.')
      const unknownKeys = (issue.params as { keys?: unknown }).keys
      if (issue.keyword === 'unrecognized_keys' && Array.isArray(unknownKeys)) {
        for (const k of unknownKeys) note(path ? `${path}.${k}` : String(k), 'Unknown field')
        continue
      }
      note(path || (err.validationContext ?? 'request'), issue.message ?? 'Invalid value')
    }
    const where = err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'request')
    const names = [...fields.keys()].join(', ')
    return sendError(reply, 400, 'VALIDATION', `Invalid ${where}: ${names}`, Object.fromEntries(fields))
  }

  // A value the database cannot take (a NUL byte in text, a number out of range) came from the request.
  if (isDataException(err)) {
    return sendError(
      reply,
      400,
      'VALIDATION',
      'The request holds a value that cannot be stored or searched for',
    )
  }

  if (err.code === 'FST_ERR_RESPONSE_SERIALIZATION') {
    req.log.error({ err }, 'response did not match its schema')
    return sendError(reply, 500, 'INTERNAL', `Something went wrong (request ${req.id})`)
  }

  const status = typeof err.statusCode === 'number' ? err.statusCode : 500
  if (status >= 400 && status < 500) {
    if (status === 429 && !reply.hasHeader('retry-after')) reply.header('retry-after', '60')
    return sendError(reply, status, codeForStatus(status), err.message)
  }
  req.log.error({ err }, 'unhandled error')
  return sendError(reply, 500, 'INTERNAL', `Something went wrong (request ${req.id})`)
}
