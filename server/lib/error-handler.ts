import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import type { ErrorBody, ErrorCode } from '#contract/errors'
import { AppError } from './errors'

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

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED'
  if (status === 403) return 'FORBIDDEN'
  if (status === 404) return 'NOT_FOUND'
  if (status === 409) return 'CONFLICT'
  if (status === 429) return 'RATE_LIMITED'
  if (status >= 500) return 'INTERNAL'
  return 'VALIDATION'
}

/** Sends an already-serialized JSON body (from the public cache) without serializing it again. */
export function sendJson(reply: FastifyReply, body: string) {
  return reply.type('application/json').send(body as never)
}

/** The one error handler: known outcomes keep their status; anything else is a logged 500 with no internals. */
export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) return sendError(reply, err.status, err.code, err.message, err.fields)

  if (hasZodFastifySchemaValidationErrors(err)) {
    const fields: Record<string, string> = {}
    for (const issue of err.validation) {
      const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.')
      const unknownKeys = (issue.params as { keys?: unknown }).keys
      if (issue.keyword === 'unrecognized_keys' && Array.isArray(unknownKeys)) {
        for (const k of unknownKeys) fields[path ? `${path}.${k}` : String(k)] ??= 'Unknown field'
        continue
      }
      fields[path || (err.validationContext ?? 'request')] ??= issue.message ?? 'Invalid value'
    }
    const where = err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'request')
    const names = Object.keys(fields).join(', ')
    return sendError(reply, 400, 'VALIDATION', `Invalid ${where}: ${names}`, fields)
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
