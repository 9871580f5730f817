import type { SecondaryStorage } from '@better-auth/core/db'
import type { Redis } from 'ioredis'
import { redisFrom } from './redis'

/**
 * Better Auth's secondary storage in Redis: every instance finds a session there without asking the
 * database. Sessions are still written to the database too (the record, and what survives a Redis flush).
 */
export type SessionStore = SecondaryStorage & { close(): Promise<void> }

export function createRedisSessionStore(from: Redis | string, prefix: string): SessionStore {
  const { redis, owned } = redisFrom(from)
  const k = (key: string) => `${prefix}auth:${key}`
  return {
    get: (key) => redis.get(k(key)),
    getAndDelete: (key) => redis.getdel(k(key)),
    async increment(key, ttl) {
      const [[, count]] = (await redis.multi().incr(k(key)).expire(k(key), ttl, 'NX').exec()) as [
        [null, number],
      ]
      return count
    },
    async set(key, value, ttl) {
      if (ttl && ttl > 0) await redis.set(k(key), value, 'EX', ttl)
      else await redis.set(k(key), value)
    },
    async delete(key) {
      await redis.del(k(key))
    },
    async close() {
      if (owned) await redis.quit()
    },
  }
}
