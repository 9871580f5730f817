import type { AppContext } from '#server/app-context'
import type { ReturnsDeps } from './returns.service'

/** What the returns' steps need of the app: mail and jobs in the caller's transaction, the processor, the rules. */
export function returnsDeps(ctx: Pick<AppContext, 'mail' | 'jobs' | 'payments' | 'config'>): ReturnsDeps {
  return {
    mail: ctx.mail,
    jobs: ctx.jobs,
    provider: ctx.payments,
    fee: ctx.config.payouts.fee,
    inspectionDays: ctx.config.deal.inspectionDays,
    returnConfirmDays: ctx.config.deal.returnConfirmDays,
  }
}
