// The test carrier's clock, on the database's job queue (server/jobs), so several instances move each
// tracker once: a `test-carrier.step` job per tracker step, TEST_CARRIER_SECONDS after the last, moves it
// (a conditional update on the locked tracker) and, in the same transaction, queues the next step and the
// step's signed `tracker.updated` webhook; the `test-carrier.webhook` job posts it to our receiver over HTTP,
// retried with backoff while it is refused, as EasyPost retries.
import type { AppContext } from '#server/app-context'
import { carrierOf } from './carrier'
import { eventBody, signWebhook, stepTracker } from './test-carrier'

/** Moves a test tracker one step (if it is still at `from`), queueing its webhook and its next step. */
export async function advanceTracker(ctx: AppContext, trackerId: string, from: string) {
  return ctx.db.transaction(async (tx) => {
    const step = await stepTracker(tx, trackerId, from)
    if (!step) return null
    await ctx.jobs.send(
      'test-carrier.webhook',
      { eventId: step.event.id, body: eventBody(step.event) },
      { tx },
    )
    if (!step.final) {
      await ctx.jobs.send(
        'test-carrier.step',
        { trackerId, from: step.status },
        { tx, startAfter: ctx.config.shipping.testStepSeconds },
      )
    }
    return step
  })
}

/** Posts one event to our receiver as EasyPost does: the JSON body, signed, with EasyPost's user agent. */
export async function sendTestWebhook(ctx: AppContext, body: string) {
  const carrier = carrierOf(ctx)
  const res = await fetch(`${await carrier.testBaseUrl()}/api/webhooks/easypost`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'EasyPost WebHook Agent 1.0',
      'x-hmac-signature': signWebhook(body, carrier.webhookSecret),
    },
    body,
    signal: AbortSignal.timeout(20_000),
  })
  if (!res.ok) throw new Error(`The receiver refused the webhook: ${res.status} ${await res.text()}`)
}

export function registerTestCarrierJobs(ctx: AppContext) {
  ctx.jobs.work('test-carrier.step', async (job) => {
    await advanceTracker(ctx, job.data.trackerId, job.data.from)
  })
  ctx.jobs.work('test-carrier.webhook', async (job) => {
    await sendTestWebhook(ctx, job.data.body)
  })
}
