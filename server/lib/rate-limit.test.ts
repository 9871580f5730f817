import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type AppInstance, buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import { MemoryMediaStorage } from '#server/lib/storage'
import { postSignIn, signUp, TEST_PASSWORD } from '#server/test/auth-helpers'
import { openTestDatabase } from '#server/test/test-app'
import { SIGN_IN_LIMITS } from '../modules/auth/sign-in-limit'
import { type CounterStore, createCounterStore, MemoryCounterStore, RedisCounterStore } from './rate-limit'

// Redis runs only when a server is named, e.g. TEST_REDIS_URL=redis://127.0.0.1:6379. Each run writes
// under its own key prefix and removes its keys afterwards, so parallel runs never share counts.
const REDIS_URL = process.env.TEST_REDIS_URL
const PREFIX = `lm-test:${randomUUID().slice(0, 8)}:`
const WITHOUT_REDIS = 'needs TEST_REDIS_URL (e.g. redis://127.0.0.1:6379)'

async function removeTestKeys() {
  if (!REDIS_URL) return
  const redis = new Redis(REDIS_URL)
  try {
    let cursor = '0'
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 500)
      if (keys.length) await redis.del(...keys)
      cursor = next
    } while (cursor !== '0')
  } finally {
    await redis.quit()
  }
}

afterAll(removeTestKeys)

const stores: { name: string; make: () => CounterStore; skip: boolean }[] = [
  { name: 'MemoryCounterStore', make: () => new MemoryCounterStore(), skip: false },
  {
    name: `RedisCounterStore${REDIS_URL ? '' : ` (skipped: ${WITHOUT_REDIS})`}`,
    make: () => new RedisCounterStore(REDIS_URL ?? '', PREFIX),
    skip: !REDIS_URL,
  },
]

for (const { name, make, skip } of stores) {
  describe.skipIf(skip)(name, () => {
    let store: CounterStore
    const key = () => `key-${randomUUID()}`

    beforeAll(() => {
      store = make()
    })
    afterAll(async () => {
      await store?.close()
    })

    it('counts from one within a fixed window', async () => {
      const k = key()
      const first = await store.increment(k, 60_000)
      expect(first.count).toBe(1)
      expect(first.resetMs).toBeGreaterThan(55_000)
      expect(first.resetMs).toBeLessThanOrEqual(60_000)
      await sleep(20)
      const second = await store.increment(k, 60_000)
      expect(second.count).toBe(2)
      // A later increment does not push the end of the window back.
      expect(second.resetMs).toBeLessThan(first.resetMs)
    })

    it('peeks without adding; an unknown key is zero', async () => {
      const k = key()
      expect(await store.peek(k)).toEqual({ count: 0, resetMs: 0 })
      await store.increment(k, 60_000)
      await store.increment(k, 60_000)
      const peeked = await store.peek(k)
      expect(peeked.count).toBe(2)
      expect(peeked.resetMs).toBeGreaterThan(0)
      expect((await store.peek(k)).count).toBe(2)
    })

    it('starts again once the window has passed', async () => {
      const k = key()
      await store.increment(k, 50)
      await store.increment(k, 50)
      await sleep(120)
      expect((await store.peek(k)).count).toBe(0)
      expect((await store.increment(k, 50)).count).toBe(1)
    })

    it('reset clears a key; other keys keep their counts', async () => {
      const [a, b] = [key(), key()]
      await store.increment(a, 60_000)
      await store.increment(b, 60_000)
      await store.reset(a)
      expect((await store.peek(a)).count).toBe(0)
      expect((await store.peek(b)).count).toBe(1)
    })

    it('decrement takes one back, never below zero, and never starts a window', async () => {
      const k = key()
      await store.increment(k, 60_000)
      await store.increment(k, 60_000)
      await store.decrement(k)
      expect((await store.peek(k)).count).toBe(1)
      await store.decrement(k)
      await store.decrement(k)
      expect((await store.peek(k)).count).toBe(0)

      const unknown = key()
      await store.decrement(unknown)
      expect(await store.peek(unknown)).toEqual({ count: 0, resetMs: 0 })
      expect((await store.increment(unknown, 60_000)).count).toBe(1)
    })

    it('counts concurrent increments exactly', async () => {
      const k = key()
      const results = await Promise.all(Array.from({ length: 40 }, () => store.increment(k, 60_000)))
      expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 40 }, (_, i) => i + 1),
      )
    })
  })
}

describe('createCounterStore', () => {
  it('keeps counts in memory without a Redis URL', async () => {
    const store = createCounterStore(undefined)
    expect(store).toBeInstanceOf(MemoryCounterStore)
    await store.close()
  })

  it.skipIf(!REDIS_URL)(
    `uses Redis with a URL (${REDIS_URL ? 'TEST_REDIS_URL' : WITHOUT_REDIS})`,
    async () => {
      const store = createCounterStore(REDIS_URL)
      expect(store).toBeInstanceOf(RedisCounterStore)
      await store.close()
    },
  )
})

describe.skipIf(!REDIS_URL)(
  `Redis counters across instances${REDIS_URL ? '' : ` (skipped: ${WITHOUT_REDIS})`}`,
  () => {
    it('two connections with one prefix share counts; another prefix does not', async () => {
      const one = new RedisCounterStore(REDIS_URL ?? '', PREFIX)
      const two = new RedisCounterStore(REDIS_URL ?? '', PREFIX)
      const elsewhere = new RedisCounterStore(REDIS_URL ?? '', `${PREFIX}other:`)
      try {
        const k = `shared-${randomUUID()}`
        await one.increment(k, 60_000)
        expect((await two.increment(k, 60_000)).count).toBe(2)
        expect((await one.peek(k)).count).toBe(2)
        expect((await elsewhere.peek(k)).count).toBe(0)
      } finally {
        await Promise.all([one.close(), two.close(), elsewhere.close()])
      }
    })

    it('keeps each count under the prefix with an expiry, so Redis forgets it', async () => {
      const store = new RedisCounterStore(REDIS_URL ?? '', PREFIX)
      const redis = new Redis(REDIS_URL ?? '')
      try {
        const k = `ttl-${randomUUID()}`
        await store.increment(k, 60_000)
        const ttl = await redis.pttl(`${PREFIX}${k}`)
        expect(ttl).toBeGreaterThan(0)
        expect(ttl).toBeLessThanOrEqual(60_000)
      } finally {
        await Promise.all([store.close(), redis.quit()])
      }
    })

    describe('two app instances on one database and one Redis', () => {
      let apps: AppInstance[] = []
      let counters: CounterStore[] = []
      let drop: () => Promise<void> = async () => {}
      let closeDatabase: () => Promise<void> = async () => {}

      beforeAll(async () => {
        const opened = await openTestDatabase()
        drop = opened.drop
        closeDatabase = () => opened.database.close()
        const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_CACHE_TTL_MS: '0' })
        counters = [
          new RedisCounterStore(REDIS_URL ?? '', PREFIX),
          new RedisCounterStore(REDIS_URL ?? '', PREFIX),
        ]
        apps = []
        for (const store of counters) {
          const app = await buildApp({
            config,
            database: opened.database,
            storage: new MemoryMediaStorage(),
            logger: false,
            counters: store,
          })
          await app.ready()
          apps.push(app)
        }
      })

      afterAll(async () => {
        for (const app of apps) await app.close()
        for (const store of counters) await store.close()
        await closeDatabase()
        await drop()
      })

      it('share the sign-in limit: failures on either count towards the same 10', async () => {
        const [a, b] = apps as [AppInstance, AppInstance]
        const person = await signUp(a, { role: 'buyer' })
        for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++) {
          const app = i % 2 ? b : a
          expect(
            (await postSignIn(app, { email: person.user.email, password: 'wrong-password' })).statusCode,
          ).toBe(401)
        }
        for (const app of [a, b]) {
          const blocked = await postSignIn(app, { email: person.user.email, password: TEST_PASSWORD })
          expect(blocked.statusCode).toBe(429)
          // The rest of the 15-minute window, not a moment.
          const retryAfter = Number(blocked.headers['retry-after'])
          expect(retryAfter).toBeGreaterThan(SIGN_IN_LIMITS.windowMs / 1000 - 120)
          expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowMs / 1000)
        }
      })
    })
  },
)

describe('MemoryCounterStore stays bounded', () => {
  it('keeps at most its fixed number of keys, dropping the oldest', async () => {
    const store = new MemoryCounterStore({ maxEntries: 1000 })
    for (let i = 0; i < 5000; i++) await store.increment(`guess-${i}@example.test`, 60_000)
    expect(store.size).toBe(1000)
    expect((await store.peek('guess-4999@example.test')).count).toBe(1)
    expect((await store.peek('guess-0@example.test')).count).toBe(0)
  })

  it('lets expired keys go as new ones arrive, a few at a time', async () => {
    vi.useFakeTimers()
    try {
      const store = new MemoryCounterStore({ maxEntries: 100_000 })
      for (let i = 0; i < 1000; i++) await store.increment(`old-${i}`, 1000)
      vi.advanceTimersByTime(2000)
      for (let i = 0; i < 1000; i++) await store.increment(`new-${i}`, 60_000)
      expect(store.size).toBe(1000)
    } finally {
      vi.useRealTimers()
    }
  })
})
