// A listing's `img` took another seller's photo (/media/products/<id>-…) and any https host, so every viewer's
// browser called that host. Repeated here: a path under /media/ must be the seller's own upload, and an outside
// https image is fetched once by the server (public addresses only) and stored like an upload.

import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { productImages, uploads } from '#server/db/schema'
import { fetchOutsideImage, isPublicAddress } from '#server/lib/outside-image'
import { MEDIA_PREFIX } from '#server/lib/storage'
import { bearerFor } from '#server/test/auth-helpers'
import { createBrand, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let png: Buffer
const fetched: string[] = []
let brandId: string

beforeAll(async () => {
  png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366aa' } })
    .png()
    .toBuffer()
  t = await createTestApp(
    {},
    {
      // A public image host, as the real fetch would find one: answers with a PNG.
      fetchImage: async (url) => {
        fetched.push(url)
        if (url.includes('not-an-image')) throw new Error('it is not a JPEG, PNG or WebP image')
        return png
      },
    },
  )
  brandId = (await createBrand(t.db)).id
})
afterAll(async () => {
  await t?.close()
})

const body = (img: string) => ({
  name: 'Image Laptop 14',
  category_id: brandId,
  seller_phone: '(512) 555-0100',
  resale_price: 499,
  original_price: 999,
  description: 'Fully working, light marks on the lid, battery at 82%.',
  condition: 'Good',
  location: 'Austin, TX',
  uses: 2,
  processor: 'Intel Core i5-1235U',
  ram_gb: 16,
  storage_gb: 512,
  screen_inches: 14,
  img,
})

async function list(seller: UserRow, img: string, app = t) {
  return app.app.inject({
    method: 'POST',
    url: '/api/products',
    headers: await bearerFor(app.app, seller),
    payload: body(img),
  })
}

async function photosOf(productId: string) {
  return t.db
    .select({ cardUrl: productImages.cardUrl, detailUrl: productImages.detailUrl })
    .from(productImages)
    .where(eq(productImages.productId, productId))
}

describe('a path under /media/', () => {
  it("refuses another seller's photo, and takes the seller's own", async () => {
    const owner = await createUser(t.db, { role: 'seller' })
    const thief = await createUser(t.db, { role: 'seller' })
    const [upload] = await t.db
      .insert(uploads)
      .values({
        uploaderId: owner.id,
        cardUrl: `${MEDIA_PREFIX}products/ab/owner-card.webp`,
        detailUrl: `${MEDIA_PREFIX}products/ab/owner-detail.webp`,
        width: 800,
        height: 600,
        bytes: 1000,
      })
      .returning()
    if (!upload) throw new Error('no upload')
    const refused = await list(thief, upload.detailUrl)
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error.fields.img).toBe('Use a photo you uploaded yourself')
    expect((await list(thief, `${MEDIA_PREFIX}products/ab/nobody-card.webp`)).statusCode).toBe(400)

    const own = await list(owner, upload.cardUrl)
    expect(own.statusCode).toBe(201)
    expect(await photosOf(own.json().insertedId)).toEqual([
      { cardUrl: upload.cardUrl, detailUrl: upload.detailUrl },
    ])
  })
})

describe('an outside https image', () => {
  it('is fetched once by the server and stored like an upload: viewers never call that host', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const url = 'https://images.example.com/laptop.png'
    const res = await list(seller, url)
    expect(res.statusCode, res.body).toBe(201)
    expect(fetched.filter((u) => u === url)).toHaveLength(1)
    const [photo] = await photosOf(res.json().insertedId)
    expect(photo?.cardUrl.startsWith(MEDIA_PREFIX)).toBe(true)
    expect(photo?.detailUrl.startsWith(MEDIA_PREFIX)).toBe(true)
    expect(JSON.stringify(await photosOf(res.json().insertedId))).not.toContain('example.com')
    const [row] = await t.db
      .select()
      .from(uploads)
      .where(eq(uploads.cardUrl, photo?.cardUrl ?? ''))
    expect(row?.uploaderId).toBe(seller.id)
    expect(t.storage.files.has((photo?.cardUrl ?? '').slice(MEDIA_PREFIX.length))).toBe(true)
  })

  it('that cannot be used is a 400 on the img field, saying why', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const res = await list(seller, 'https://images.example.com/not-an-image.html')
    expect(res.statusCode).toBe(400)
    expect(res.json().error.fields.img).toMatch(/not a JPEG, PNG or WebP image/)
  })
})

describe('the real fetch', () => {
  it('knows public addresses from private, loopback, link-local and documentation ones', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])
      expect(isPublicAddress(ip), ip).toBe(true)
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '198.51.100.7',
    ])
      expect(isPublicAddress(ip), ip).toBe(false)
  })

  it('never reaches a private address, by number or by a name that resolves to one, nor plain http', async () => {
    await expect(fetchOutsideImage('https://127.0.0.1/x.png')).rejects.toThrow(/not on the public internet/)
    await expect(fetchOutsideImage('https://[::1]/x.png')).rejects.toThrow(/not on the public internet/)
    await expect(fetchOutsideImage('https://169.254.169.254/latest/meta-data')).rejects.toThrow(
      /not on the public internet/,
    )
    await expect(fetchOutsideImage('https://localhost/x.png')).rejects.toThrow(/not on the public internet/)
    await expect(fetchOutsideImage('http://8.8.8.8/x.png')).rejects.toThrow(/not an https address/)
  })

  it('refuses a listing whose image URL points at a private address, storing nothing', async () => {
    const plain = await createTestApp()
    try {
      const seller = await createUser(plain.db, { role: 'seller' })
      const brand = await createBrand(plain.db)
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/products',
        headers: await bearerFor(plain.app, seller),
        payload: { ...body('https://127.0.0.1:9/x.png'), category_id: brand.id },
      })
      expect(res.statusCode).toBe(400)
      expect(res.json().error.fields.img).toMatch(/not on the public internet/)
      expect(await plain.db.select().from(uploads)).toEqual([])
    } finally {
      await plain.close()
    }
  })
})
