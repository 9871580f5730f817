import { Redis } from 'ioredis'

/**
 * The app's one Redis connection (sessions, limits, views), opened by buildApp and closed last when the app closes.
 * A part given a URL instead (a test, a command) opens and owns a connection of its own.
 */
export function openRedis(url: string, connectionName?: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, connectionName })
  // ioredis reconnects by itself; an error event without a listener would crash the process.
  redis.on('error', () => {})
  return redis
}

/** A client to use, and whether closing the user closes it (only one it opened from a URL). */
export function redisFrom(from: Redis | string): { redis: Redis; owned: boolean } {
  return typeof from === 'string' ? { redis: openRedis(from), owned: true } : { redis: from, owned: false }
}
