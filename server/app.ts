import fs from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'
import compress from '@fastify/compress'
import rateLimit from '@fastify/rate-limit'
import fastifyStatic from '@fastify/static'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from 'fastify'
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import { Redis } from 'ioredis'
import { isPagePath } from '#contract/pages'
import type { Config } from './config'
import type { Database, Db } from './db/client'
import { type Auth, createAuth, resolveAuthSecret } from './lib/auth'
import { errorHandler, frameworkErrorHandler, sendError } from './lib/error-handler'
import { PublicCache } from './lib/public-cache'
import { type CounterStore, createCounterStore } from './lib/rate-limit'
import { securityHeaders } from './lib/security-headers'
import { createSessions, type Sessions } from './lib/session'
import { isSafeKey, MEDIA_PREFIX, type MediaStorage } from './lib/storage'
import { authRoutes } from './modules/auth/auth.routes'
import { bookingRoutes } from './modules/bookings/bookings.routes'
import { brandRoutes } from './modules/brands/brands.routes'
import { healthRoutes } from './modules/health/health.routes'
import { paymentRoutes } from './modules/payments/payments.routes'
import { productRoutes } from './modules/products/products.routes'
import { reportRoutes } from './modules/reports/reports.routes'
import { uploadRoutes } from './modules/uploads/uploads.routes'
import { userRoutes } from './modules/users/users.routes'

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

export type BuildAppOptions = {
  config: Config
  database: Database
  storage: MediaStorage
  logger?: boolean
  /** Defaults to Redis when REDIS_URL is set, else memory. */
  counters?: CounterStore
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
  }).withTypeProvider<ZodTypeProvider>()

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  const secret = resolveAuthSecret(config)
  const auth = createAuth(database.db, config, secret)
  const counters = opts.counters ?? createCounterStore(config.redisUrl)
  app.decorate('ctx', {
    config,
    database,
    db: database.db,
    storage,
    cache: new PublicCache(config.publicCacheTtlMs),
    auth,
    sessions: createSessions(database.db, auth, secret, config.accessTokenTtlSeconds),
    counters,
  })
  app.addHook('onClose', async () => {
    if (!opts.counters) await counters.close()
  })
  app.setErrorHandler(errorHandler)

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
      await typed.register(reportRoutes)
      typed.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
    },
    { prefix: '/api' },
  )

  app.get<{ Params: { '*': string } }>(`${MEDIA_PREFIX}*`, { schema: { hide: true } }, async (req, reply) => {
    const key = req.params['*']
    const type = MEDIA_TYPES[path.extname(key).toLowerCase()]
    const data = type && isSafeKey(key) ? await storage.read(key) : undefined
    if (!data || !type) return sendError(reply, 404, 'NOT_FOUND', 'Image not found')
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .type(type)
      .send(data)
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

  app.setNotFoundHandler(async (req, reply) => {
    const url = new URL(req.url, 'http://localhost')
    if (
      url.pathname.startsWith('/api/') ||
      url.pathname === '/api' ||
      url.pathname.startsWith(MEDIA_PREFIX)
    ) {
      return sendError(reply, 404, 'NOT_FOUND', `No route ${req.method} ${url.pathname}`)
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
