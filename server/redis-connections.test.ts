// One Redis connection per app: sessions, write and sign-in limits and "seen today" for views share the client
// buildApp opens (server/lib/redis.ts); nothing else in the server opens one.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Redis } from 'ioredis'
import { describe, expect, it } from 'vitest'
import { signUp } from '#server/test/auth-helpers'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp } from '#server/test/test-app'

const REDIS_URL = process.env.TEST_REDIS_URL
const ROOT = path.resolve(import.meta.dirname, '..')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name)
    if (e.isDirectory()) return sourceFiles(file)
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [file] : []
  })
}

describe('Redis connections', () => {
  it('only server/lib/redis.ts makes a Redis client', () => {
    const makers = sourceFiles(path.join(ROOT, 'server'))
      .filter((f) => /new Redis\(|\.duplicate\(/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(ROOT, f))
    expect(makers).toEqual(['server/lib/redis.ts'])
  })

  it.skipIf(!REDIS_URL)('an app uses one connection for sessions, limits and views', async () => {
    const prefix = `lm-test:${randomUUID().slice(0, 8)}:`
    const t = await createTestApp({
      REDIS_URL: REDIS_URL ?? '',
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_PER_MINUTE: '100',
    })
    const admin = new Redis(REDIS_URL ?? '')
    try {
      // A session (Better Auth's storage), a write (the write limit), a listing's view (seen today).
      const { cookie } = await signUp(t.app, { role: 'buyer' })
      const seller = await createUser(t.db, { role: 'seller' })
      const product = await createProduct(t.db, { seller, brand: await createBrand(t.db) })
      const viewed = await t.app.inject({
        method: 'POST',
        url: `/api/products/${product.id}/views`,
        headers: { cookie, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' },
      })
      expect(viewed.statusCode).toBeLessThan(500)
      const list = (await admin.client('LIST')) as string
      const ours = list.split('\n').filter((line) => line.includes(`name=${prefix}app `))
      expect(ours).toHaveLength(1)
    } finally {
      admin.disconnect()
      await t.close()
    }
  })
})
