import { z } from 'zod'

/**
 * What the audit log records. Admin actions are named after what they change; security events after what
 * happened to the account; money events after the payment.
 */
export const AUDIT_KINDS = {
  // Admin actions
  'user.make_admin': 'Made an admin',
  'user.remove_admin': 'Removed an admin',
  'user.delete': 'Deleted an account',
  'seller.verify': 'Verified a seller',
  'report.dismiss': 'Dismissed a report',
  'report.remove_listing': 'Removed a reported listing',
  'review.remove': 'Removed a review',
  'review.dismiss': "Dismissed a review's reports",
  'dispute.refund': 'Refunded a disputed sale',
  'dispute.release': 'Released a disputed sale',
  'dispute.return_first': 'Asked for a disputed laptop back before a refund',
  'return.decide': 'Decided a return the seller declined',
  'sale.refund': 'Refunded a completed sale',
  'product.remove': 'Took down a listing',
  'listing.approve': 'Approved a listing under review',
  'listing.reject': 'Rejected a listing under review',
  'serial.mark_stolen': 'Marked a serial number reported stolen',
  // Security events
  sign_in: 'Signed in with a password',
  'sign_in.two_step': 'Entered a sign-in code',
  'sign_in.passkey': 'Signed in with a passkey',
  sign_out: 'Signed out',
  'password.change': 'Changed the password',
  'password.reset_request': 'Asked for a password reset',
  'password.reset': 'Reset the password',
  'two_step.setup': 'Started setting up two-step sign-in',
  'two_step.enable': 'Turned on two-step sign-in',
  'two_step.disable': 'Turned off two-step sign-in',
  'two_step.backup_codes': 'Made new backup codes',
  'two_step.secret_read': 'Showed the authenticator secret again',
  'passkey.add': 'Added a passkey',
  'passkey.rename': 'Renamed a passkey',
  'passkey.remove': 'Removed a passkey',
  'session.end': 'Ended a session',
  'session.end_others': 'Ended every other session',
  'sign_in.new_device': 'Signed in from a new device',
  'payout_account.change': 'Changed the payout bank account',
  'account.not_me': 'Said a change was not theirs: signed out everywhere, recent passkeys removed',
  'account.export': 'Downloaded their data',
  step_up: "Confirmed it's them (password or code)",
  'payout_account.undo': 'Undid a change of the payout details',
  'account.erase': 'Erased their account',
  'account.name': 'Changed their name',
  'email.preferences': 'Changed which emails they get',
  // Money a person caused
  'payment.start': 'Started a card payment',
  'payment.pay': 'Paid for a booking',
  // The marketplace's own checks
  'finance.reconcile': 'Checked the ledger against the processor',
} as const

export type AuditKind = keyof typeof AUDIT_KINDS
export const AuditKind = z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]])

/** The kinds a person sees about their own account in settings. */
export const SECURITY_KINDS = [
  'sign_in',
  'sign_in.two_step',
  'sign_in.passkey',
  'sign_out',
  'password.change',
  'password.reset_request',
  'password.reset',
  'two_step.setup',
  'two_step.enable',
  'two_step.disable',
  'two_step.backup_codes',
  'two_step.secret_read',
  'passkey.add',
  'passkey.rename',
  'passkey.remove',
  'session.end',
  'session.end_others',
  'sign_in.new_device',
  'payout_account.change',
  'account.not_me',
  'account.export',
  'account.name',
  'email.preferences',
  'step_up',
  'payout_account.undo',
] as const satisfies readonly AuditKind[]

export const AuditResult = z.enum(['success', 'failure', 'denied'])
export type AuditResult = z.infer<typeof AuditResult>

const isoInstant = z.iso.datetime({ offset: true, message: 'Use an ISO 8601 date and time' })

export const AuditQuery = z.strictObject({
  actor_email: z.string().trim().toLowerCase().min(1).max(254).optional(),
  kind: AuditKind.optional(),
  since: isoInstant.optional(),
  until: isoInstant.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
})
export type AuditQuery = z.infer<typeof AuditQuery>

export const AuditEntry = z.object({
  /** The row's place in the log (rising). */
  id: z.number().int(),
  /** When, in UTC (ISO 8601 with Z). */
  at: z.string(),
  /** The acting person's current address (an erased account reads "Deleted user"), or null. */
  actor_email: z.string().nullable(),
  kind: z.string(),
  /** What it acted on, as `type:id`. */
  target: z.string().nullable(),
  /**
   * The target as a person reads it: a person's name and address ("Avery Morgan (avery@example.com)"), a listing's
   * name, "booking of …", "report on …"; null when it is gone or has no name (the id is then all there is).
   */
  target_label: z.string().nullable(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  result: AuditResult,
  detail: z.string().nullable(),
})
export type AuditEntry = z.infer<typeof AuditEntry>

export const AuditPage = z.object({
  items: z.array(AuditEntry),
  page: z.number().int(),
  page_size: z.number().int(),
  has_more: z.boolean(),
})
export type AuditPage = z.infer<typeof AuditPage>

export const SecurityEvent = z.object({
  id: z.number().int(),
  at: z.string(),
  kind: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  result: AuditResult,
})
export const SecurityEventList = z.object({ items: z.array(SecurityEvent) })
export type SecurityEvent = z.infer<typeof SecurityEvent>
