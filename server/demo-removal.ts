import pino from 'pino'
import { removeDemoAccounts } from '#server/modules/users'
import type { Config } from './config'
import type { Db } from './db/client'
import { Jobs } from './jobs/jobs'
import { Mail } from './mail/mail'
import { createMailTransport } from './mail/transport'

/**
 * Removes the demo accounts from the command line. Emails to buyers whose unpaid bookings end are queued in the
 * same transaction; the server's workers send them once it runs.
 */
export async function removeDemoAccountsNow(db: Db, config: Config): Promise<string> {
  const log = pino({ level: 'warn' })
  const jobs = new Jobs(db, log)
  const mail = new Mail({ db, jobs, transport: createMailTransport(config.mail), config, log })
  try {
    const { removed, listingsOffSale, bookingsCancelled } = await removeDemoAccounts(db, mail)
    if (removed.length === 0) return 'No demo accounts to remove.'
    return [
      `Removed ${removed.length} demo account${removed.length === 1 ? '' : 's'} (${removed.map((a) => a.email).join(', ')}):`,
      `nobody can sign in as them; ${listingsOffSale} of their listings left sale` +
        (bookingsCancelled > 0
          ? `, ${bookingsCancelled} unpaid bookings ended (the buyers are emailed).`
          : '.'),
    ].join('\n')
  } finally {
    mail.close()
  }
}
