import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import type { Jobs } from '#server/jobs/jobs'
import type { Connect } from '#server/lib/payment-provider'
import type { Mail } from '#server/mail/mail'

/** What the payout runs, their jobs and the reconciliation need: the app's context, or a test's pick of it. */
export type PayoutDeps = {
  db: Db
  mail: Pick<Mail, 'queue'>
  jobs: Pick<Jobs, 'send'>
  config: Config
  /** Stripe Connect when Stripe is configured (the app's payment provider); test payouts otherwise. */
  payments?: { connect: Connect | null }
  /** Tests only: runs between Stripe's transfer and its record (a throw here is a process dying there). */
  testHooks?: { afterTransfer?: (payoutId: string) => Promise<void> }
}
