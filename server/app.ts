import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import compress from '@fastify/compress'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify from 'fastify'
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { Redis } from 'ioredis'
import { isPagePath } from '#contract/pages'
import type { AppContext, AppInstance } from './app-context'
import type { Config } from './config'
import type { Database } from './db/client'
import { Jobs } from './jobs/jobs'
import { installAudit } from './lib/audit'
import { createAuth, resolveAuthSecret } from './lib/auth'
import { errorHandler, frameworkErrorHandler, sendError } from './lib/error-handler'
import { installGuards, SECURITY_SCHEMES } from './lib/guard'
import { originCheck } from './lib/origin'
import { PublicCache, PublicDataWatch } from './lib/public-cache'
import { type CounterStore, createCounterStore } from './lib/rate-limit'
import { securityHeaders } from './lib/security-headers'
import { createSessions } from './lib/session'
import { createRedisSessionStore } from './lib/session-store'
import { isSafeKey, MEDIA_PREFIX, type MediaStorage } from './lib/storage'
import { createAuthEmails } from './mail/auth-emails'
import { Mail } from './mail/mail'
import { createMailTransport, type MailTransport } from './mail/transport'
import { accountRoutes } from './modules/account/account.routes'
import { registerAlertJobs } from './modules/alerts/alerts.jobs'
import { unsubscribeRoutes } from './modules/alerts/unsubscribe.routes'
import { auditRoutes } from './modules/audit/audit.routes'
import { authRoutes } from './modules/auth/auth.routes'
import { batteryReportRoutes } from './modules/battery-reports/battery-reports.routes'
import { bookingRoutes } from './modules/bookings/bookings.routes'
import { registerDealJobs } from './modules/bookings/deal.service'
import { brandRoutes } from './modules/brands/brands.routes'
import { dashboardRoutes } from './modules/dashboard/dashboard.routes'
import { disputeRoutes } from './modules/disputes/disputes.routes'
import { emailSettingsRoutes } from './modules/email-settings/email-settings.routes'
import { favouriteRoutes } from './modules/favourites/favourites.routes'
import { financeRoutes } from './modules/finance/finance.routes'
import { healthRoutes } from './modules/health/health.routes'
import { listingReviewRoutes } from './modules/listing-reviews/listing-reviews.routes'
import { messageRoutes } from './modules/messages/messages.routes'
import { registerMessageJobs } from './modules/messages/messages.service'
import { registerOfferJobs } from './modules/offers/offers.jobs'
import { offerRoutes } from './modules/offers/offers.routes'
import { pageRoutes } from './modules/pages/pages.routes'
import { loadBuiltRenderer, type PageRenderer } from './modules/pages/pages.service'
import { choosePaymentProvider } from './modules/payments/payment-provider'
import { paymentRoutes } from './modules/payments/payments.routes'
import { payoutRoutes } from './modules/payouts/payouts.routes'
import { registerPayoutJobs } from './modules/payouts/payouts.service'
import { priceGuideRoutes } from './modules/price-guide/price-guide.routes'
import { registerPriceGuideJobs } from './modules/price-guide/price-guide.service'
import { registerExpiryJobs } from './modules/products/expiry'
import { searchReady } from './modules/products/listing-feed'
import { productRoutes } from './modules/products/products.routes'
import { reportRoutes } from './modules/reports/reports.routes'
import { reviewRoutes } from './modules/reviews/reviews.routes'
import { savedSearchRoutes } from './modules/saved-searches/saved-searches.routes'
import { type FetchOutsideImage, fetchOutsideImage } from './modules/uploads/outside-image'
import { registerPhotoCleanup } from './modules/uploads/photo-cleanup'
import { uploadRoutes } from './modules/uploads/uploads.routes'
import { userRoutes } from './modules/users/users.routes'
import { ViewCounter } from './modules/views/view-counter'
import { viewRoutes } from './modules/views/views.routes'

export type { AppContext, AppInstance }

export type BuildAppOptions = {
  config: Config
  database: Database
  storage: MediaStorage
  logger?: boolean
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

const MEDIA_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
}

export async function buildApp(opts: BuildAppOptions): Promise<AppInstance> {
  const { config, database, storage } = opts
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
          },
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    frameworkErrors: frameworkErrorHandler,
    // While closing, a request on a connection accepted before the listener closed is served, not answered
    // 503: a balancer resends a refused GET to another instance but never a POST, so that write would fail.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>()

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  const secret = resolveAuthSecret(config)
  const sessionStore = config.redisUrl
    ? createRedisSessionStore(config.redisUrl, config.redisKeyPrefix)
    : undefined
  if (sessionStore) app.addHook('onClose', () => sessionStore.close())
  const counters = opts.counters ?? createCounterStore(config.redisUrl)
  const cache = new PublicCache(config.publicCacheTtlMs)
  if (cache.isEnabled) {
    // The cache follows the database's public version: every instance drops it within a poll of any commit that
    // changes public data, and this one before answering the request that made the change.
    const watch = new PublicDataWatch(database.db, cache, app.log)
    await watch.start()
    app.addHook('onSend', async (req) => {
      if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return
      await watch.check().catch((err) => {
        cache.clear()
        req.log.warn({ err }, 'Could not read the public data version; the public cache is dropped')
      })
    })
    app.addHook('onClose', async () => watch.stop())
  }
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
    redisUrl: config.redisUrl,
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
  // Scheduled sweeps: listing expiry (hourly) and the price guide's rebuild (daily).
  registerExpiryJobs(app.ctx)
  registerPhotoCleanup(app.ctx)
  registerDealJobs(app.ctx)
  registerMessageJobs(app.ctx)
  registerOfferJobs(app.ctx)
  registerPriceGuideJobs(app.ctx)
  registerAlertJobs(app.ctx)
  registerPayoutJobs(app.ctx)
  app.addHook('onClose', async () => {
    if (!opts.counters) await counters.close()
  })
  app.setErrorHandler(errorHandler)
  // The last step of draining (server/main.ts): reads answer 503, which nginx resends to another instance and
  // counts as this one failing, so it stops choosing it; writes are still served, since nothing resends them.
  // Likewise behind a balancer (TURN_AWAY_WHILE_LOADING) while search has not read its copy of the listings.
  app.addHook('onRequest', (req, reply, done) => {
    const { lifecycle } = app.ctx
    const loading = config.turnAwayWhileLoading && !searchReady(database.db)
    if (
      (lifecycle.turningAway || loading) &&
      (req.method === 'GET' || req.method === 'HEAD') &&
      !req.url.startsWith('/api/health')
    ) {
      reply.header('connection', 'close').header('retry-after', '1')
      sendError(
        reply,
        503,
        'INTERNAL',
        loading
          ? 'This server is starting. Please try again.'
          : 'This server is shutting down. Please try again.',
      )
      return
    }
    done()
  })
  app.addHook('onRequest', originCheck(config))

  const headers = securityHeaders({ production: config.env === 'production' })
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers)
    done()
  })
  if (config.rateLimitPerMinute > 0) {
    // Reads are cached and cheap; what is limited is changes, per client address, shared through Redis.
    const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : undefined
    if (redis) app.addHook('onClose', async () => void (await redis.quit()))
    await app.register(rateLimit, {
      global: true,
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      redis,
      nameSpace: 'lm:writes:',
      allowList: (req) => req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS',
      errorResponseBuilder: (_req, context) => ({
        statusCode: 429,
        message: `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      }),
    })
  }
  installGuards(app)
  installAudit(app)
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  })

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Laptop Market API',
        version: '1.0.0',
        description: 'A marketplace for used laptops. Errors are `{ error: { code, message, fields? } }`.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs' })

  await app.register(
    async (api) => {
      const typed = api.withTypeProvider<ZodTypeProvider>()
      await typed.register(healthRoutes)
      await typed.register(brandRoutes)
      await typed.register(productRoutes)
      await typed.register(authRoutes)
      await typed.register(userRoutes)
      await typed.register(bookingRoutes)
      await typed.register(paymentRoutes)
      await typed.register(uploadRoutes)
      await typed.register(batteryReportRoutes)
      await typed.register(listingReviewRoutes)
      await typed.register(reportRoutes)
      await typed.register(reviewRoutes)
      await typed.register(emailSettingsRoutes)
      await typed.register(disputeRoutes)
      await typed.register(messageRoutes)
      await typed.register(offerRoutes)
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
      typed.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
    },
    { prefix: '/api' },
  )

  app.get<{ Params: { '*': string } }>(`${MEDIA_PREFIX}*`, { schema: { hide: true } }, async (req, reply) => {
    const key = req.params['*']
    const type = MEDIA_TYPES[path.extname(key).toLowerCase()]
    const data = type && isSafeKey(key) ? await storage.read(key) : undefined
    if (!data || !type) return sendError(reply, 404, 'NOT_FOUND', 'Image not found')
    // The same bytes give the same ETag on every instance and from every store.
    const etag = `"${crypto.createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
    const asked = req.headers['if-none-match']?.split(',') ?? []
    if (asked.some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')) {
      return reply.code(304).send()
    }
    return reply.type(type).send(data)
  })

  const webDir = config.webDistDir
  const indexFile = path.join(webDir, 'index.html')
  if (fs.existsSync(indexFile)) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        // Every page answer is index.html (direct or as the SPA fallback): a cached copy would point at
        // hashed assets that the next deploy removes, so browsers must revalidate it every time.
        const cacheControl = filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : filePath.endsWith('.html')
            ? 'no-cache'
            : 'public, max-age=3600'
        reply.header('cache-control', cacheControl)
      },
    })
  }

  const pages = await pageRoutes(app, {
    renderer: opts.pageRenderer ?? (await loadBuiltRenderer(webDir)),
    webDir,
    sitemapMaxUrls: opts.sitemapMaxUrls,
  })

  app.setNotFoundHandler(async (req, reply) => {
    const url = new URL(req.url, 'http://localhost')
    if (
      url.pathname.startsWith('/api/') ||
      url.pathname === '/api' ||
      url.pathname.startsWith(MEDIA_PREFIX)
    ) {
      return sendError(reply, 404, 'NOT_FOUND', `No route ${req.method} ${url.pathname}`)
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (await pages.sendPage(req, reply)) return reply
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && fs.existsSync(indexFile)) {
      return reply
        .code(isPagePath(url.pathname) ? 200 : 404)
        .header('cache-control', 'no-cache')
        .sendFile('index.html', webDir)
    }
    return sendError(reply, 404, 'NOT_FOUND', `No route ${req.method} ${url.pathname}`)
  })

  return app
}
