import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import type { Config } from '#server/config'

/** Reads are cached and cheap; what is limited is changes, per client address, shared through the app's Redis. */
export async function writeLimitPlugin(app: FastifyInstance, config: Config, redis: Redis | undefined) {
  if (config.rateLimitPerMinute <= 0) return
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
