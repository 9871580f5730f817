import { z } from 'zod'

export const SignedInSession = z.object({
  id: z.string(),
  /** "Chrome on Windows", from the browser's user agent. */
  browser: z.string(),
  /** Roughly where: a private network, or the address with its last part hidden. */
  place: z.string(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_seen: z.string(),
  current: z.boolean(),
})
export type SignedInSession = z.infer<typeof SignedInSession>
export const SessionList = z.object({ items: z.array(SignedInSession) })
export type SessionList = z.infer<typeof SessionList>

export const SessionParams = z.strictObject({ id: z.string().trim().min(1).max(64) })

export const Ended = z.object({ acknowledged: z.literal(true), endedCount: z.number().int() })
export type Ended = z.infer<typeof Ended>

/** Erasing an account: the password, and a current code when two-step sign-in is on. */
export const EraseAccount = z.strictObject({
  password: z.string().min(1, 'Enter your password').max(128),
  code: z.string().trim().max(32).optional(),
})
export type EraseAccount = z.infer<typeof EraseAccount>

/** Whether the account can be erased now, and if not, why (asked before the erase form asks for anything). */
export const ErasureCheck = z.object({ can_erase: z.boolean(), reason: z.string().nullable() })
export type ErasureCheck = z.infer<typeof ErasureCheck>
