// Uploaded photos were kept forever with no quota. Repeated here: a seller past UNATTACHED_PHOTOS_PER_SELLER
// photos not on a listing gets 429 saying what to do; the upload route has its own tighter limit; a sweep
// removes unattached photos older than a day from every kind of store (a folder, the database, an S3 bucket),
// and the photos of a deleted listing once nothing refers to them.

import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { eq, inArray } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { products, uploads } from '#server/db/schema'
import { S3MediaStorage } from '#server/lib/s3-storage'
import { DatabaseMediaStorage, LocalMediaStorage, MEDIA_PREFIX, type MediaStorage } from '#server/lib/storage'
import { bearerFor } from '#server/test/auth-helpers'
import { createBooking, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { startLocalS3 } from '#server/test/local-s3'
import { fileBody } from '#server/test/multipart'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { removeStalePhotos } from './photo-cleanup'

// Two test projects (PGlite, PostgreSQL) may run this file at once: each gets its own port.
const S3_PORT = process.env.TEST_DB === 'postgres' ? 4495 : 4494

let t: TestApp
let tmp: string
let s3: Awaited<ReturnType<typeof startLocalS3>>
let png: Buffer

beforeAll(async () => {
  t = await createTestApp({
    UNATTACHED_PHOTOS_PER_SELLER: '30',
    UPLOADS_PER_MINUTE: '3',
    TRUST_PROXY: 'true',
  })
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-photo-cleanup-'))
  s3 = await startLocalS3(S3_PORT)
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer()
})
afterAll(async () => {
  await s3?.close()
  await t?.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

function upload(headers: Record<string, string>, address: string) {
  const body = fileBody(png, 'laptop.png', 'image/png')
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { ...headers, ...body.headers, 'x-forwarded-for': address },
    payload: body.payload,
  })
}

/** Upload rows for a seller, as if uploaded `hoursAgo` (the files are put in `store` when given). */
async function photosOf(seller: UserRow, n: number, hoursAgo = 0, store?: MediaStorage) {
  const rows: { id: string; cardUrl: string; detailUrl: string }[] = []
  for (let i = 0; i < n; i++) {
    const id = crypto.randomUUID()
    const keys = [
      `products/${id.slice(0, 2)}/${id}-card.webp`,
      `products/${id.slice(0, 2)}/${id}-detail.webp`,
    ]
    if (store) for (const key of keys) await store.put(key, png)
    const [row] = await t.db
      .insert(uploads)
      .values({
        uploaderId: seller.id,
        cardUrl: `${MEDIA_PREFIX}${keys[0]}`,
        detailUrl: `${MEDIA_PREFIX}${keys[1]}`,
        width: 64,
        height: 48,
        bytes: png.length,
        createdAt: new Date(Date.now() - hoursAgo * 3600_000),
      })
      .returning({ id: uploads.id, cardUrl: uploads.cardUrl, detailUrl: uploads.detailUrl })
    if (row) rows.push(row)
  }
  return rows
}

describe('the upload route', () => {
  it('refuses a seller with 30 photos not on a listing (429, saying what to do), before working on the picture', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    await photosOf(seller, 30)
    const res = await upload(await bearerFor(t.app, seller), '192.0.2.10')
    expect(res.statusCode).toBe(429)
    expect(res.json().error.message).toMatch(
      /30 uploaded photos that are not on a listing yet.*Add them to a listing/,
    )
    expect(await t.db.select().from(uploads).where(eq(uploads.uploaderId, seller.id))).toHaveLength(30)
  })

  it('counts only photos not on a listing: one put on a listing frees a place', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const [first] = await photosOf(seller, 30)
    if (!first) throw new Error('no photo')
    await createProduct(t.db, {
      seller,
      brand: await createBrand(t.db),
      images: [{ cardUrl: first.cardUrl, detailUrl: first.detailUrl }],
    })
    expect((await upload(await bearerFor(t.app, seller), '192.0.2.11')).statusCode).toBe(201)
  })

  it('has its own tighter limit per client address', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const headers = await bearerFor(t.app, seller)
    const answers: number[] = []
    for (let i = 0; i < 4; i++) answers.push((await upload(headers, '192.0.2.12')).statusCode)
    expect(answers).toEqual([201, 201, 201, 429])
    expect((await upload(headers, '192.0.2.13')).statusCode).toBe(201)
  })
})

describe.each([
  { name: 'a folder', make: () => new LocalMediaStorage(path.join(tmp, 'media')) },
  { name: 'the database', make: () => new DatabaseMediaStorage(t.db) },
  {
    name: 'an S3 bucket',
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
])('the sweep, with photos in $name', ({ make }) => {
  it('removes unattached photos older than a day, and a deleted listing’s once nothing refers to them', async () => {
    const store = make()
    const seller = await createUser(t.db, { role: 'seller' })
    const brand = await createBrand(t.db)
    const [stale] = await photosOf(seller, 1, 25, store)
    const [fresh] = await photosOf(seller, 1, 1, store)
    const [listed, deletedListing, booked] = await photosOf(seller, 3, 25, store)
    if (!stale || !fresh || !listed || !deletedListing || !booked) throw new Error('no photos')
    const on = (p: { cardUrl: string; detailUrl: string }) => [{ cardUrl: p.cardUrl, detailUrl: p.detailUrl }]
    await createProduct(t.db, { seller, brand, images: on(listed) })
    const gone = await createProduct(t.db, { seller, brand, images: on(deletedListing) })
    await t.db.update(products).set({ removedAt: new Date() }).where(eq(products.id, gone.id))
    const goneWithBooking = await createProduct(t.db, { seller, brand, images: on(booked) })
    await createBooking(t.db, { buyer: await createUser(t.db, { role: 'buyer' }), product: goneWithBooking })
    await t.db.update(products).set({ removedAt: new Date() }).where(eq(products.id, goneWithBooking.id))

    await removeStalePhotos(t.db, store)

    const keyOf = (url: string) => url.slice(MEDIA_PREFIX.length)
    const kept = async (p: { cardUrl: string; detailUrl: string }) =>
      (await store.exists(keyOf(p.cardUrl))) && (await store.exists(keyOf(p.detailUrl)))
    expect(await kept(stale)).toBe(false)
    expect(await kept(deletedListing)).toBe(false)
    expect(await kept(fresh)).toBe(true)
    expect(await kept(listed)).toBe(true)
    expect(await kept(booked)).toBe(true)
    const rows = await t.db
      .select({ id: uploads.id })
      .from(uploads)
      .where(inArray(uploads.id, [stale.id, fresh.id, listed.id, deletedListing.id, booked.id]))
    expect(rows.map((r) => r.id).sort()).toEqual([fresh.id, listed.id, booked.id].sort())
    // A second run finds nothing more to do.
    expect(await removeStalePhotos(t.db, store)).toBe(0)
  })
})
