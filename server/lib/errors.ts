import type { ErrorCode } from '#contract/errors'

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  // Before FORBIDDEN: a bare 403 reads back as FORBIDDEN (error-handler.ts keeps the last code of a status).
  STEP_UP_REQUIRED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  HOLD_ENDED: 409,
  PAYMENT_FAILED: 402,
  RESERVED: 409,
  RATE_LIMITED: 429,
  INTERNAL: 500,
}

/** An outcome the caller should see: code, a readable message, and optionally the bad fields. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message)
    this.name = 'AppError'
  }

  get status(): number {
    return STATUS_BY_CODE[this.code]
  }
}

/** 429: too many in a window; `retryAfterSeconds` until the caller may try again (sent as Retry-After). */
export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', message)
  }
}

export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} not found`)
}
