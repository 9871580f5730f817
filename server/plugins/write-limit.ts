import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import type { Config } from '#server/config'

/** Reads are cached and cheap; what is limited is changes, per client address, shared through the app's Redis. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS'])
const isRead = (method: string) => READS.has(method)

export async function writeLimitPlugin(app: FastifyInstance, config: Config, redis: Redis | undefined) {
  if (config.rateLimitPerMinute <= 0) return
  // A route that only reads gets no limit's hook at all (before the limit's own onRoute, which reads this), so a
  // read costs nothing here; `allowList` lets reads through on routes that also take writes. A read route that
  // declares a limit of its own keeps it.
  app.addHook('onRoute', (route) => {
    const own = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit
    if (own === undefined && [route.method].flat().every(isRead))
      route.config = { ...route.config, rateLimit: false }
  })
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    redis,
    nameSpace: 'lm:writes:',
    allowList: (req) => isRead(req.method),
    errorResponseBuilder: (_req, context) => ({
      statusCode: 429,
      message: `Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
    }),
  })
}
