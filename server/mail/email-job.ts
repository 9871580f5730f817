import type { TemplateName } from './templates'

/** A user of the app (their current address and name, and their email settings), or a bare address. */
export type Recipient = { userId: string } | { email: string; name?: string }

/** A queued email, as the job queue stores it (JSON). */
export type EmailJob = { to: Recipient; template: TemplateName; data: object }
