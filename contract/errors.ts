import { z } from 'zod'

export const ErrorCode = z.enum([
  'VALIDATION',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  /** 403: the change needs the password or a second factor given in the last 5 minutes ("Confirm it's you"). */
  'STEP_UP_REQUIRED',
  'NOT_FOUND',
  'CONFLICT',
  /** 409: the buyer's earlier hold on the laptop ended; only "Hold it again" takes a new one (body adds `holdUntil`). */
  'HOLD_ENDED',
  'PAYMENT_FAILED',
  /** 409: another buyer holds the laptop while paying (the body adds `holdUntil`). */
  'RESERVED',
  'RATE_LIMITED',
  'INTERNAL',
])
export type ErrorCode = z.infer<typeof ErrorCode>

export const ErrorBody = z.object({
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
})
export type ErrorBody = z.infer<typeof ErrorBody>
