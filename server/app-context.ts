// What every route plugin reads from `app.ctx`, in a file of its own so that route modules need nothing
// from app.ts (which imports them). Every module reads it, so it imports no module (docs/decisions/0054): what
// it names sits below them, in db/, lib/, jobs/ and mail/.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Config } from './config'
import type { Database, Db } from './db/client'
import type { Jobs } from './jobs/jobs'
import type { Auth } from './lib/auth'
import type { FetchOutsideImage } from './lib/outside-image'
import type { PaymentProvider } from './lib/payment-provider'
import type { PublicCache } from './lib/public-cache'
import type { CounterStore } from './lib/rate-limit'
import type { Sessions } from './lib/session'
import type { MediaStorage } from './lib/storage'
import type { ViewCounter } from './lib/view-counter'
import type { Mail } from './mail/mail'

export type AppContext = {
  config: Config
  database: Database
  db: Db
  storage: MediaStorage
  cache: PublicCache
  auth: Auth
  sessions: Sessions
  /** Counters shared by every instance when Redis is configured (sign-in limits). */
  counters: CounterStore
  /** The job queue: `send(name, data, { tx })`, `work(name, handler)`, `schedule(name, cron)` (server/jobs). */
  jobs: Jobs
  /** Email: `queue(tx, { to, template, data })`, sent by the `email` worker (server/mail). */
  mail: Mail
  /** How cards are taken and refunded (Stripe, or the built-in test processor): chosen once, shared by all. */
  payments: PaymentProvider
  /** Fetches an outside https image a seller names, once (server/lib/outside-image.ts). */
  fetchImage: FetchOutsideImage
  /** Listing page views, batched (server/lib/view-counter.ts; counted by server/modules/views). */
  views: ViewCounter
  /** Set on SIGTERM: health answers 503 so the balancer stops sending while requests in flight finish. */
  /**
   * `draining`: health answers 503. `turningAway`: the last step before the listener closes, when reads (GET,
   * HEAD) other than health answer 503 too, so a balancer that retries them elsewhere also stops choosing us.
   */
  lifecycle: { draining: boolean; turningAway?: boolean }
}

export type AppInstance = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext
  }
}
