import type { Redis } from 'ioredis'
import { RateLimited } from './errors'
import { redisFrom } from './redis'

/** Fixed-window counters. In Redis when configured, so that every app instance sees the same counts. */
export interface CounterStore {
  /** Adds one to the key's count in the current window and returns the new count and ms until reset. */
  increment(key: string, windowMs: number): Promise<{ count: number; resetMs: number }>
  /** The key's count and ms until reset, without adding. */
  peek(key: string): Promise<{ count: number; resetMs: number }>
  /** Takes one back from the key's count in its current window (never below zero, never starts a window). */
  decrement(key: string): Promise<void>
  reset(key: string): Promise<void>
  close(): Promise<void>
}

/**
 * Counters in this process, bounded: a Map kept in the order windows start, so the oldest entries are at
 * its head. Each increment lets go of up to two expired entries there, and past `maxEntries` the oldest
 * entry goes, so memory stays fixed however many emails are tried, without ever walking every entry.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly counts = new Map<string, { count: number; resetAt: number }>()
  private readonly maxEntries: number

  constructor(options: { maxEntries?: number } = {}) {
    this.maxEntries = options.maxEntries ?? 100_000
  }

  get size(): number {
    return this.counts.size
  }

  private live(key: string) {
    const entry = this.counts.get(key)
    if (entry && entry.resetAt <= Date.now()) {
      this.counts.delete(key)
      return undefined
    }
    return entry
  }

  private trim(now: number) {
    for (let i = 0; i < 2; i++) {
      const oldest = this.counts.entries().next()
      if (oldest.done || oldest.value[1].resetAt > now) break
      this.counts.delete(oldest.value[0])
    }
    while (this.counts.size > this.maxEntries) {
      const oldest = this.counts.keys().next()
      if (oldest.done) break
      this.counts.delete(oldest.value)
    }
  }

  async increment(key: string, windowMs: number) {
    const now = Date.now()
    let entry = this.live(key)
    if (!entry) {
      entry = { count: 0, resetAt: now + windowMs }
      this.counts.set(key, entry)
    }
    entry.count += 1
    this.trim(now)
    return { count: entry.count, resetMs: entry.resetAt - now }
  }

  async peek(key: string) {
    const entry = this.live(key)
    return entry ? { count: entry.count, resetMs: entry.resetAt - Date.now() } : { count: 0, resetMs: 0 }
  }

  async decrement(key: string) {
    const entry = this.live(key)
    if (entry && entry.count > 0) entry.count -= 1
  }

  async reset(key: string) {
    this.counts.delete(key)
  }

  async close() {}
}

export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis
  private readonly owned: boolean

  constructor(
    from: Redis | string,
    private readonly prefix = 'lm:rl:',
  ) {
    ;({ redis: this.redis, owned: this.owned } = redisFrom(from))
  }

  async increment(key: string, windowMs: number) {
    const k = this.prefix + key
    // Replies in order: INCR, PEXPIRE, PTTL.
    const [[, count], , [, ttl]] = (await this.redis
      .multi()
      .incr(k)
      .pexpire(k, windowMs, 'NX')
      .pttl(k)
      .exec()) as [[null, number], [null, number], [null, number]]
    return { count, resetMs: Math.max(ttl, 0) }
  }

  async peek(key: string) {
    const k = this.prefix + key
    const [[, value], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [
      [null, string | null],
      [null, number],
    ]
    return { count: value ? Number(value) : 0, resetMs: Math.max(ttl, 0) }
  }

  async decrement(key: string) {
    // A plain DECR on an expired key would create one with no expiry.
    await this.redis.eval(
      "if redis.call('get', KEYS[1]) and tonumber(redis.call('get', KEYS[1])) > 0 then redis.call('decr', KEYS[1]) end",
      1,
      this.prefix + key,
    )
  }

  async reset(key: string) {
    await this.redis.del(this.prefix + key)
  }

  async close() {
    if (this.owned) await this.redis.quit()
  }
}

export function createCounterStore(redis: Redis | string | undefined): CounterStore {
  return redis ? new RedisCounterStore(redis) : new MemoryCounterStore()
}

/**
 * Counts one more under `key` in a window of `windowMs`; past `max` refuses with 429 in `tooFast`'s words for the
 * seconds left (sent as Retry-After too). The one home of a limit a route or service keeps for itself (messages,
 * shipping quotes, photo uploads).
 */
export async function countOrRefuse(
  counters: CounterStore,
  key: string,
  windowMs: number,
  max: number,
  tooFast: (seconds: number) => string,
): Promise<void> {
  const { count, resetMs } = await counters.increment(key, windowMs)
  if (count <= max) return
  const seconds = Math.max(1, Math.ceil(resetMs / 1000))
  throw new RateLimited(tooFast(seconds), seconds)
}
