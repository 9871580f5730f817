import zlib from 'node:zlib'
import compress from '@fastify/compress'
import Fastify from 'fastify'
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { type DestinationStream, stdSerializers } from 'pino'
import { accountRoutes } from '#server/modules/account'
import { registerAlertJobs, unsubscribeRoutes } from '#server/modules/alerts'
import { auditRoutes } from '#server/modules/audit'
import { authRoutes } from '#server/modules/auth'
import { batteryReportRoutes } from '#server/modules/battery-reports'
import { bookingRoutes, registerDealJobs } from '#server/modules/bookings'
import { brandRoutes } from '#server/modules/brands'
import { dashboardRoutes } from '#server/modules/dashboard'
import { labelRoutes, registerShipLateJob } from '#server/modules/delivery'
import { disputeRoutes } from '#server/modules/disputes'
import { emailSettingsRoutes } from '#server/modules/email-settings'
import { favouriteRoutes } from '#server/modules/favourites'
import { financeRoutes } from '#server/modules/finance'
import { healthRoutes } from '#server/modules/health'
import { listingReviewRoutes } from '#server/modules/listing-reviews'
import { messageRoutes, registerMessageJobs } from '#server/modules/messages'
import { readFigures } from '#server/modules/metrics'
import { offerRoutes, registerOfferJobs } from '#server/modules/offers'
import { inlineScriptHashes, loadBuiltRenderer, type PageRenderer, pageRoutes } from '#server/modules/pages'
import { choosePaymentProvider, paymentRoutes } from '#server/modules/payments'
import { payoutRoutes, registerPayoutJobs } from '#server/modules/payouts'
import { priceGuideRoutes, registerPriceGuideJobs } from '#server/modules/price-guide'
import { productRoutes, registerExpiryJobs, registerListingImagesJobs } from '#server/modules/products'
import { questionRoutes, registerQuestionJobs } from '#server/modules/questions'
import { reportRoutes } from '#server/modules/reports'
import { registerReturnJobs, returnRoutes } from '#server/modules/returns'
import { reviewRoutes } from '#server/modules/reviews'
import { savedSearchRoutes } from '#server/modules/saved-searches'
import { searchReady, searchRoutes } from '#server/modules/search'
import { registerShipping, shippingWebhookRoutes } from '#server/modules/shipping'
import { registerPhotoCleanup, uploadRoutes } from '#server/modules/uploads'
import { userRoutes } from '#server/modules/users'
import { viewRoutes } from '#server/modules/views'
import type { AppContext, AppInstance } from './app-context'
import type { Config } from './config'
import type { Database } from './db/client'
import { Jobs } from './jobs/jobs'
import { installAudit } from './lib/audit'
import { createAuth, resolveAuthSecret } from './lib/auth'
import { errorHandler, frameworkErrorHandler } from './lib/error-handler'
import { installGuards } from './lib/guard'
import { REDACTED_PATHS, redactError, redactSecrets, serializeRequest } from './lib/log-redaction'
import { installNoStore } from './lib/no-store'
import { originCheck } from './lib/origin'
import { type FetchOutsideImage, fetchOutsideImage } from './lib/outside-image'
import { type CounterStore, createCounterStore } from './lib/rate-limit'
import { openRedis } from './lib/redis'
import { installRequestScope, requestIdMixin, requestIdOf } from './lib/request-scope'
import { securityHeaders } from './lib/security-headers'
import { createSessions } from './lib/session'
import { createRedisSessionStore } from './lib/session-store'
import { installStepUp } from './lib/step-up'
import type { MediaStorage } from './lib/storage'
import { zodValidatorCompiler } from './lib/validation'
import { ViewCounter } from './lib/view-counter'
import { createAuthEmails } from './mail/auth-emails'
import { Mail } from './mail/mail'
import { createMailTransport, type MailTransport } from './mail/transport'
import { apiDocsPlugin } from './plugins/api-docs'
import { mediaPlugin } from './plugins/media'
import { metricsPlugin } from './plugins/metrics'
import { publicCachePlugin } from './plugins/public-cache'
import { turnAwayPlugin } from './plugins/turn-away'
import { webAppPlugin } from './plugins/web-app'
import { writeLimitPlugin } from './plugins/write-limit'

export type { AppContext, AppInstance }

export type BuildAppOptions = {
  config: Config
  database: Database
  storage: MediaStorage
  logger?: boolean
  /** Where the log goes (standard output by default); tests read what the log says from here. */
  logStream?: DestinationStream
  /** Defaults to Redis when REDIS_URL is set, else memory. */
  counters?: CounterStore
  /** Renders public pages; defaults to the built one in dist/server (none: pages are the browser app's shell). */
  pageRenderer?: PageRenderer
  /** URLs per sitemap file (the protocol's 50,000 by default). */
  sitemapMaxUrls?: number
  /** How often idle job workers look for work (2 s by default). */
  jobPollMs?: number
  /** Defaults to SMTP_URL's server, else `.eml` files under DATA_DIR/mail. */
  mailTransport?: MailTransport
  /** Fetches an outside image a seller names; defaults to the real, public-addresses-only fetch. */
  fetchImage?: FetchOutsideImage
}

export async function buildApp(opts: BuildAppOptions): Promise<AppInstance> {
  const { config, database, storage } = opts
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(opts.logStream ? { stream: opts.logStream } : {}),
            // Secrets never reach the log: headers that carry them, and tokens, codes and signatures in URLs
            // (the request line, an error's message, any text logged).
            redact: REDACTED_PATHS,
            // Lines logged while a request is served carry its id, whichever logger wrote them.
            mixin: requestIdMixin,
            serializers: {
              req: serializeRequest,
              err: (err: Error) => redactError(stdSerializers.err(err)),
            },
            hooks: {
              logMethod(args, method) {
                method.apply(
                  this,
                  args.map((arg) => (typeof arg === 'string' ? redactSecrets(arg) : arg)) as typeof args,
                )
              },
            },
          },
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: requestIdOf,
    frameworkErrors: frameworkErrorHandler,
    // While closing, a request on a connection accepted before the listener closed is served, not answered
    // 503: a balancer resends a refused GET to another instance but never a POST, so that write would fail.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>()

  installRequestScope(app)
  app.setValidatorCompiler(zodValidatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  const secret = resolveAuthSecret(config)
  // The one Redis connection (sessions, limits, views): its close is added first, so it runs after every other.
  const redis = config.redisUrl ? openRedis(config.redisUrl, `${config.redisKeyPrefix}app`) : undefined
  if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => {})))
  const sessionStore = redis ? createRedisSessionStore(redis, config.redisKeyPrefix) : undefined
  const counters = opts.counters ?? createCounterStore(redis)
  const cache = await publicCachePlugin(app, database, config)
  // Jobs are queued from the start; workers run only once `app.ctx.jobs.start()` is called (server/main.ts).
  const jobs = new Jobs(database.db, app.log.child({ module: 'jobs' }), { pollMs: opts.jobPollMs })
  const mail = new Mail({
    db: database.db,
    jobs,
    transport: opts.mailTransport ?? createMailTransport(config.mail),
    config,
    log: app.log.child({ module: 'mail' }),
  })
  app.addHook('onClose', async () => {
    await jobs.stop()
    mail.close()
  })
  const auth = createAuth(
    database.db,
    config,
    secret,
    createAuthEmails({ db: database.db, config, counters, mail, log: app.log }),
    sessionStore,
  )
  const views = new ViewCounter(database.db, {
    redis,
    redisKeyPrefix: config.redisKeyPrefix,
    counters,
    perAddressPerDay: config.viewsPerAddressPerDay,
    onError: (err) => app.log.warn({ err }, 'Could not write listing views'),
  })
  app.addHook('onClose', () => views.close())
  app.decorate('ctx', {
    config,
    database,
    db: database.db,
    storage,
    cache,
    auth,
    sessions: createSessions(database.db, auth, secret, config.accessTokenTtlSeconds),
    counters,
    jobs,
    mail,
    payments: choosePaymentProvider(config, mail),
    lifecycle: { draining: false },
    views,
    fetchImage: opts.fetchImage ?? fetchOutsideImage,
  })
  // Scheduled sweeps: listing expiry (hourly) and the price guide's rebuild (daily); at each start, the fill of
  // listings' images column (migration 0057).
  registerExpiryJobs(app.ctx)
  registerListingImagesJobs(app.ctx)
  registerPhotoCleanup(app.ctx)
  registerDealJobs(app.ctx)
  registerShipLateJob(app.ctx)
  registerReturnJobs(app.ctx)
  registerMessageJobs(app.ctx)
  registerOfferJobs(app.ctx)
  registerQuestionJobs(app.ctx)
  registerPriceGuideJobs(app.ctx)
  registerAlertJobs(app.ctx)
  registerPayoutJobs(app.ctx, app.log)
  app.addHook('onClose', async () => {
    if (!opts.counters) await counters.close()
  })
  app.setErrorHandler(errorHandler)
  turnAwayPlugin(app, () => config.turnAwayWhileLoading && !searchReady(database.db))
  app.addHook('onRequest', originCheck(config))

  const headers = securityHeaders({
    production: config.env === 'production',
    scriptHashes: inlineScriptHashes(config.webDistDir),
  })
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers)
    done()
  })
  await writeLimitPlugin(app, config, redis)
  installGuards(app)
  installStepUp(app)
  installAudit(app)
  installNoStore(app)
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  })

  await apiDocsPlugin(app)
  metricsPlugin(app, { token: config.metricsToken, readFigures: () => readFigures(database.db) })

  await app.register(
    async (api) => {
      const typed = api.withTypeProvider<ZodTypeProvider>()
      await typed.register(healthRoutes)
      await typed.register(brandRoutes)
      await typed.register(productRoutes)
      await typed.register(searchRoutes)
      await typed.register(authRoutes)
      await typed.register(userRoutes)
      await typed.register(bookingRoutes)
      await typed.register(labelRoutes)
      await typed.register(paymentRoutes)
      await typed.register(uploadRoutes)
      await typed.register(batteryReportRoutes)
      await typed.register(listingReviewRoutes)
      await typed.register(reportRoutes)
      await typed.register(reviewRoutes)
      await typed.register(emailSettingsRoutes)
      await typed.register(disputeRoutes)
      await typed.register(returnRoutes)
      await typed.register(messageRoutes)
      await typed.register(offerRoutes)
      await typed.register(questionRoutes)
      await typed.register(priceGuideRoutes)
      await typed.register(viewRoutes)
      await typed.register(dashboardRoutes)
      await typed.register(favouriteRoutes)
      await typed.register(savedSearchRoutes)
      await typed.register(unsubscribeRoutes)
      await typed.register(payoutRoutes)
      await typed.register(financeRoutes)
      await typed.register(auditRoutes)
      await typed.register(accountRoutes)
      await typed.register(shippingWebhookRoutes)
      typed.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
    },
    { prefix: '/api' },
  )

  await registerShipping(app)
  mediaPlugin(app, storage)
  const pages = await pageRoutes(app, {
    renderer: opts.pageRenderer ?? (await loadBuiltRenderer(config.webDistDir)),
    webDir: config.webDistDir,
    sitemapMaxUrls: opts.sitemapMaxUrls,
  })
  await webAppPlugin(app, { webDir: config.webDistDir, sendPage: pages.sendPage })
  return app
}
