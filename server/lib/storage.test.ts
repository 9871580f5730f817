import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import type { Database } from '#server/db/client'
import { startLocalS3 } from '#server/test/local-s3'
import { openTestDatabase } from '#server/test/test-app'
import { copyMediaFolder, createMediaStorage } from './media-storage'
import { S3MediaStorage } from './s3-storage'
import { DatabaseMediaStorage, LocalMediaStorage, type MediaStorage } from './storage'

const WEBP = Buffer.from(
  'RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00',
  'latin1',
)
// Two test projects (PGlite, PostgreSQL) may run this file at once: each gets its own port.
const S3_PORT = process.env.TEST_DB === 'postgres' ? 4491 : 4490

let database: Database
let drop: () => Promise<void>
let tmp: string
let s3: Awaited<ReturnType<typeof startLocalS3>>

beforeAll(async () => {
  ;({ database, drop } = await openTestDatabase())
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-media-'))
  s3 = await startLocalS3(S3_PORT)
})
afterAll(async () => {
  await s3?.close()
  await database?.close()
  await drop?.()
  fs.rmSync(tmp, { recursive: true, force: true })
})

const stores: { name: string; make: () => MediaStorage }[] = [
  { name: 'LocalMediaStorage (folder)', make: () => new LocalMediaStorage(path.join(tmp, 'media')) },
  { name: 'DatabaseMediaStorage (PostgreSQL)', make: () => new DatabaseMediaStorage(database.db) },
  {
    name: 'S3MediaStorage (S3-compatible server)',
    make: () =>
      new S3MediaStorage({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      }),
  },
]

describe.each(stores)('$name', ({ make }) => {
  it('keeps what is put, says what exists, and answers undefined for a missing key', async () => {
    const store = make()
    expect(await store.read('products/aa/missing-card.webp')).toBeUndefined()
    expect(await store.exists('products/aa/missing-card.webp')).toBe(false)
    await store.put('products/aa/one-card.webp', WEBP)
    expect(await store.exists('products/aa/one-card.webp')).toBe(true)
    expect(Buffer.compare((await store.read('products/aa/one-card.webp')) ?? Buffer.alloc(0), WEBP)).toBe(0)
    await store.put('products/aa/one-card.webp', Buffer.from('again'))
    expect(String(await store.read('products/aa/one-card.webp'))).toBe('again')
    expect(store.url('products/aa/one-card.webp')).toBe('/media/products/aa/one-card.webp')
  })

  it('refuses a key that climbs out of its place', async () => {
    await expect(make().put('../escape.webp', WEBP)).rejects.toThrow(/Unsafe media key/)
  })

  it('is served by any app instance under /media/ with a year of caching, an ETag and 304 on a match', async () => {
    const writer = make()
    await writer.put('products/bb/two-detail.webp', WEBP)
    // A second store object stands for another instance: it shares nothing in memory with the first.
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0' })
    const app = await buildApp({ config, database, storage: make(), logger: false })
    try {
      const first = await app.inject('/media/products/bb/two-detail.webp')
      expect(first.statusCode).toBe(200)
      expect(first.headers['content-type']).toBe('image/webp')
      expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(Buffer.compare(first.rawPayload, WEBP)).toBe(0)
      const etag = String(first.headers.etag)
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
      const again = await app.inject({
        url: '/media/products/bb/two-detail.webp',
        headers: { 'if-none-match': etag },
      })
      expect(again.statusCode).toBe(304)
      expect(again.rawPayload.length).toBe(0)
      const other = await app.inject({
        url: '/media/products/bb/two-detail.webp',
        headers: { 'if-none-match': '"something-else"' },
      })
      expect(other.statusCode).toBe(200)
      expect((await app.inject('/media/products/bb/none.webp')).statusCode).toBe(404)
    } finally {
      await app.close()
    }
  })
})

describe('createMediaStorage', () => {
  it('picks the folder by default, the database with DATABASE_URL, the bucket with S3_BUCKET', async () => {
    const base = { NODE_ENV: 'test', DATA_DIR: tmp }
    expect(await createMediaStorage(loadConfig(base), database.db)).toBeInstanceOf(LocalMediaStorage)
    const pgUrl = 'postgres://postgres@127.0.0.1:5432/x'
    expect(
      await createMediaStorage(loadConfig({ ...base, DATABASE_URL: pgUrl }), database.db),
    ).toBeInstanceOf(DatabaseMediaStorage)
    expect(
      await createMediaStorage(loadConfig({ ...base, DATABASE_URL: pgUrl, ...s3.env }), database.db),
    ).toBeInstanceOf(S3MediaStorage)
    expect(
      await createMediaStorage(
        loadConfig({ ...base, DATABASE_URL: pgUrl, MEDIA_STORAGE: 'local' }),
        database.db,
      ),
    ).toBeInstanceOf(LocalMediaStorage)
  })
})

describe('copyMediaFolder (npm run media:migrate)', () => {
  it('copies every photo of a folder into the store under the same key, and skips what is there', async () => {
    const folder = path.join(tmp, 'old-media')
    const local = new LocalMediaStorage(folder)
    await local.put('products/cc/a-card.webp', Buffer.from('a'))
    await local.put('products/cc/a-detail.webp', Buffer.from('b'))
    await local.put('brands/acme.svg', Buffer.from('<svg/>'))
    fs.writeFileSync(path.join(folder, 'products/cc/half.webp.123.tmp'), 'partial')
    const store = new DatabaseMediaStorage(database.db)
    await store.put('brands/acme.svg', Buffer.from('<svg/>'))
    const seen: string[] = []
    expect(await copyMediaFolder(folder, store, (key) => seen.push(key))).toEqual({ copied: 2, skipped: 1 })
    expect(seen).toEqual(['brands/acme.svg', 'products/cc/a-card.webp', 'products/cc/a-detail.webp'])
    expect(String(await store.read('products/cc/a-detail.webp'))).toBe('b')
    expect(await copyMediaFolder(folder, store)).toEqual({ copied: 0, skipped: 3 })
    expect(await copyMediaFolder(path.join(tmp, 'no-such-folder'), store)).toEqual({ copied: 0, skipped: 0 })
  })
})
