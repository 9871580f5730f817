import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { acceptedEncoding, COMPRESS_FROM_BYTES, KeptJson } from './kept-json'

// A kept public answer (the public cache's) is compressed once per encoding a client asks for, not once per request;
// what a client gets decodes to the same JSON whichever encoding it takes.

let t: TestApp
let brandId: string
let productId: string

beforeAll(async () => {
  // The public cache on, as in production (tests turn it off by default).
  t = await createTestApp({ PUBLIC_CACHE_TTL_MS: '60000' })
  const brand = await createBrand(t.db)
  brandId = brand.id
  const seller = await createUser(t.db, { role: 'seller' })
  // Enough advertised listings that the answer is past the size worth compressing.
  for (let i = 0; i < 6; i++) await createProduct(t.db, { brand, seller, isAdvertised: true })
  // Sent as bytes: a name of several bytes a character checks their length and charset.
  const named = await createProduct(t.db, {
    brand,
    seller,
    isAdvertised: true,
    name: 'ThinkPad X1 – 14″, £ & €',
  })
  productId = named.id
})

afterAll(async () => {
  await t?.close()
})

describe('kept answers', () => {
  it('are sent in the encoding the client takes, each decoding to the same JSON, and vary by it', async () => {
    const get = (encoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/advertised_product',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      })
    const plain = await get()
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length)
    expect(plain.headers.vary).toContain('accept-encoding')
    const json = plain.json()
    expect(json.length).toBeGreaterThanOrEqual(7)
    expect(json.map((p: { name: string }) => p.name)).toContain('ThinkPad X1 – 14″, £ & €')

    const br = await get('gzip, deflate, br')
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toContain('accept-encoding')
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(json)

    const gzip = await get('gzip;q=1.0, br;q=0')
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(json)
  })

  it('are compressed once per encoding, however many requests take it', async () => {
    // A new kept answer: the one the test before kept (and compressed) goes.
    t.app.ctx.cache.clear()
    // A change to the public data drops the kept answer (its notice may land mid-loop: the listings' own background
    // work, or a late notice of the writes above); the next request keeps and compresses a new one.
    const clears = vi.spyOn(t.app.ctx.cache, 'clear')
    const brotli = vi.spyOn(zlib, 'brotliCompressSync')
    try {
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/advertised_product',
          headers: { 'accept-encoding': 'br' },
        })
        expect(res.statusCode).toBe(200)
      }
      // The first request compresses it; the others send those bytes (until a change drops it).
      expect(brotli.mock.calls.length).toBeGreaterThanOrEqual(1)
      expect(brotli.mock.calls.length).toBeLessThanOrEqual(1 + clears.mock.calls.length)
      expect(clears.mock.calls.length).toBeLessThan(4)
    } finally {
      brotli.mockRestore()
      clears.mockRestore()
    }
    const kept = new KeptJson(JSON.stringify({ words: 'laptop '.repeat(400) }))
    for (const encoding of ['br', 'gzip', undefined] as const)
      expect(kept.sentAs(encoding)).toBe(kept.sentAs(encoding))
    expect(zlib.gunzipSync(kept.sentAs('gzip')).toString()).toBe(kept.text)
    expect(zlib.brotliDecompressSync(kept.sentAs('br')).toString()).toBe(kept.text)
    expect(kept.sentAs(undefined).toString()).toBe(kept.text)
  })

  // These routes leave the compression plugin out (SENDS_KEPT_JSON): sendJson alone chooses what each client gets.
  it.each([
    ['/api/brands', () => '/api/brands'],
    ['/api/advertised_product', () => '/api/advertised_product'],
    ['/api/category/{id}', () => `/api/category/${brandId}`],
    ['/api/products/{id}/questions', () => `/api/products/${productId}/questions`],
  ])('%s sends each encoding the client takes, compressed only past the threshold', async (_name, url) => {
    const plain = await t.app.inject({ url: url() })
    expect(plain.statusCode).toBe(200)
    const compressed = plain.rawPayload.length >= COMPRESS_FROM_BYTES
    for (const [asked, encoding, decode] of [
      ['br', 'br', zlib.brotliDecompressSync],
      ['gzip', 'gzip', zlib.gunzipSync],
    ] as const) {
      const res = await t.app.inject({ url: url(), headers: { 'accept-encoding': asked } })
      expect(res.headers['content-encoding']).toBe(compressed ? encoding : undefined)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      const body = compressed ? decode(res.rawPayload) : res.rawPayload
      expect(JSON.parse(body.toString())).toEqual(plain.json())
    }
  })

  it('reads the client’s encodings as pages do', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br')
    expect(acceptedEncoding('gzip;q=1.0, br;q=0')).toBe('gzip')
    expect(acceptedEncoding('identity')).toBeUndefined()
    expect(acceptedEncoding(undefined)).toBeUndefined()
  })
})
