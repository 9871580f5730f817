import type { AppContext } from '#server/app-context'
import { onReturnParcelStatus } from '#server/modules/shipping'
import { buyReturnLabel, returnParcelHandler } from './buy-return-label'
import { refundUnansweredReturns } from './returns.service'
import { returnsDeps } from './returns-deps'

/**
 * The returns' jobs: `returns.label` buys an accepted shipped return's label (queued by the acceptance, in its
 * transaction; idempotent per return, so a retry buys nothing twice) and `returns.confirm-by` (hourly; pg-boss's cron
 * runs it on one instance) refunds the returns delivered back RETURN_CONFIRM_DAYS ago whose seller did not answer.
 * A return parcel the carrier delivers back starts that wait (the carrier layer calls the handler registered here).
 */
export function registerReturnJobs(ctx: AppContext) {
  const deps = returnsDeps(ctx)
  ctx.jobs.work('returns.label', async (job) => {
    await buyReturnLabel(ctx, deps, job.data.returnId)
  })
  ctx.jobs.work('returns.confirm-by', async () => {
    await refundUnansweredReturns(ctx.db, deps)
  })
  ctx.jobs.schedule('returns.confirm-by', '41 * * * *')
  onReturnParcelStatus(ctx, returnParcelHandler(deps))
}
