import type { SecondaryStorage } from '@better-auth/core/db'
import { Redis } from 'ioredis'

/**
 * Better Auth's secondary storage in Redis: every instance finds a session there without asking the
 * database. Sessions are still written to the database too (the record, and what survives a Redis flush).
 */
export type SessionStore = SecondaryStorage & { close(): Promise<void> }

export function createRedisSessionStore(url: string, prefix: string): SessionStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 })
  redis.on('error', () => {})
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
      await redis.quit()
    },
  }
}
