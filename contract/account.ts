import { z } from 'zod'

export const SignedInSession = z.object({
  id: z.string(),
  /** "Chrome on Windows", from the browser's user agent. */
  browser: z.string(),
  /** Where from: the address it signed in from (marked when a private network); no town is guessed. */
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

/** The token of an "I did not do this" link (from a security email) or of a password-reset link. */
export const LinkToken = z.strictObject({ token: z.string().min(1).max(200) })
export type LinkToken = z.infer<typeof LinkToken>

/** What an "I did not do this" link answers: which change, and when. */
export const NotMeLink = z.object({ kind: z.string(), at: z.string() })
export type NotMeLink = z.infer<typeof NotMeLink>

/** What securing the account did; `reset_url` opens the reset page to choose a new password. */
export const NotMeResult = z.object({
  sessions_ended: z.literal(true),
  passkeys_removed: z.number().int(),
  two_step_turned_off: z.boolean(),
  reset_url: z.string(),
})
export type NotMeResult = z.infer<typeof NotMeResult>

/** A passkey added in the last 7 days, as the reset page offers it for removal. */
export const RecentPasskey = z.object({
  id: z.string(),
  name: z.string().nullable(),
  created_at: z.string(),
})
export const RecentPasskeyList = z.object({ items: z.array(RecentPasskey) })
export type RecentPasskeyList = z.infer<typeof RecentPasskeyList>

/**
 * "Confirm it's you": the session proves itself again with the password, a current code from the
 * authenticator app (or an unused backup code) when two-step sign-in is on, or one of the account's passkeys
 * (the browser's answer to `POST /api/me/step-up/passkey-options`). One of the three.
 */
export const StepUpProof = z
  .strictObject({
    password: z.string().min(1, 'Enter your password').max(128).optional(),
    code: z.string().trim().min(1, 'Enter a code').max(32).optional(),
    /** The browser's WebAuthn answer (navigator.credentials.get), as @simplewebauthn/browser gives it. */
    passkey: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((v) => [v.password, v.code, v.passkey].filter((proof) => proof !== undefined).length === 1, {
    message: 'Enter your password, or a code from your authenticator app',
    path: ['password'],
  })
export type StepUpProof = z.infer<typeof StepUpProof>

/** What the browser's passkey prompt is given: a challenge for this session and the account's own passkeys. */
export const StepUpPasskeyOptions = z.object({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  userVerification: z.string().optional(),
  allowCredentials: z
    .array(
      z.object({ id: z.string(), type: z.literal('public-key'), transports: z.array(z.string()).optional() }),
    )
    .optional(),
})
export type StepUpPasskeyOptions = z.infer<typeof StepUpPasskeyOptions>

/** Until when this session's proof holds (null: none now), and which proofs the account can give. */
export const StepUpState = z.object({
  fresh_until: z.string().nullable(),
  /** The account has a password (a Google-only account has none until it sets one). */
  password: z.boolean(),
  /** Two-step sign-in is on: a code from the authenticator app (or a backup code) proves it too. */
  code: z.boolean(),
  /** The account has a passkey: one of them proves it too. */
  passkey: z.boolean(),
})
export type StepUpState = z.infer<typeof StepUpState>
