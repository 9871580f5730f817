import type { FastifyRequest } from 'fastify'

/**
 * Query parameters that carry a live secret: reset and email-confirmation tokens, OAuth's `code` and `state`,
 * signatures. Anyone who reads the log could otherwise use them (a reset token from the log resets the password).
 */
const SECRET_PARAMS = [
  'token',
  'code',
  'state',
  'sig',
  'signature',
  'hmac',
  'otp',
  'secret',
  'password',
  'access_token',
  'refresh_token',
  'id_token',
]
const SECRET_PARAM = new RegExp(`([?&](?:${SECRET_PARAMS.join('|')})=)[^&#\\s"'<>]*`, 'gi')
/**
 * Paths whose next segment is a secret: the one-click unsubscribe link of alert emails, and the auth library's
 * reset link (`/api/auth/reset-password/<token>`).
 */
const SECRET_SEGMENT = /(\/(?:unsubscribe|reset-password)\/)[^/?#\s"'<>]+/gi

export const REDACTED = '[redacted]'

/** The text with every secret query value and secret path segment replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  return text.replace(SECRET_PARAM, `$1${REDACTED}`).replace(SECRET_SEGMENT, `$1${REDACTED}`)
}

/** What the request log says about a request: Fastify's fields, with the URL's secrets redacted. */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactSecrets(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  }
}

type SerializedError = { message?: unknown; stack?: unknown; [key: string]: unknown }

/** An error as the log prints it, its message and stack redacted (a 404's message names the URL). */
export function redactError<T extends SerializedError>(err: T): T {
  const out: SerializedError = { ...err }
  if (typeof out.message === 'string') out.message = redactSecrets(out.message)
  if (typeof out.stack === 'string') out.stack = redactSecrets(out.stack)
  return out as T
}

/** Headers whose values are secrets, as pino redact paths under req and res. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'req.headers["x-hmac-signature"]',
  'res.headers["set-cookie"]',
]
