import type { AppContext } from '#server/app-context'
import { refundUnansweredReturns } from './returns.service'
import { returnsDeps } from './returns-deps'

/**
 * The returns' jobs: `returns.confirm-by` (hourly; pg-boss's cron runs it on one instance) refunds the returns
 * delivered back RETURN_CONFIRM_DAYS ago whose seller did not answer.
 */
export function registerReturnJobs(ctx: Pick<AppContext, 'db' | 'mail' | 'jobs' | 'payments' | 'config'>) {
  const deps = returnsDeps(ctx)
  ctx.jobs.work('returns.confirm-by', async () => {
    await refundUnansweredReturns(ctx.db, deps)
  })
  ctx.jobs.schedule('returns.confirm-by', '41 * * * *')
}
