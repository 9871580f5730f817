import { randomUUID } from 'node:crypto'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { brands, products, users } from '#server/db/schema'
import { seededRandom } from '#server/lib/seeded-random'
import { createTestApp, type TestApp } from '#server/test/test-app'

/**
 * Hundreds of malformed paths and queries against every public route: none may give a 500, and
 * every /api answer is JSON (in the one error shape when it is a 4xx). The inputs come from a
 * seeded generator, so a failure names an input that reproduces.
 */

let t: TestApp
let brandId: string
let productId: string

beforeAll(async () => {
  t = await createTestApp()
  await t.db
    .insert(users)
    .values({ id: 'fuzz-seller', name: 'Seller', email: 'fuzz@example.test', role: 'seller' })
  const [brand] = await t.db
    .insert(brands)
    .values({ name: 'Dell', imageUrl: '/media/brands/dell.svg' })
    .returning()
  if (!brand) throw new Error('brand not inserted')
  brandId = brand.id
  const [product] = await t.db
    .insert(products)
    .values({
      name: 'Dell XPS 13',
      brandId,
      sellerId: 'fuzz-seller',
      resalePriceCents: 90_000,
      originalPriceCents: 150_000,
      description: 'Fine.',
      condition: 'Good',
      location: 'Dhaka',
      usesYears: 2,
      processor: 'Intel Core i7',
      ramGb: 16,
      storageGb: 512,
      screenInches: 13.3,
      isAdvertised: true,
    })
    .returning()
  if (!product) throw new Error('product not inserted')
  productId = product.id
})

afterAll(async () => {
  await t?.close()
})

/** Draws from a seed: the same sequence on every machine. */
function seeded(seed: number) {
  const next = seededRandom(seed)
  return {
    int: (max: number) => Math.floor(next() * max),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
  }
}

const rng = seeded(20260101)

const randomBytes = (length: number) =>
  Array.from({ length }, () => `%${rng.int(256).toString(16).padStart(2, '0').toUpperCase()}`).join('')
const randomPrintable = (length: number) =>
  Array.from({ length }, () => String.fromCharCode(33 + rng.int(94)))
    .join('')
    .replace(/[#?]/g, '')

/** Values that have broken parsers, databases or JSON before. */
const NASTY = [
  '',
  ' ',
  '%00',
  'a%00b',
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%C0%AE%C0%AE',
  '%FF%FE',
  '%ED%A0%80',
  '..',
  '../',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f',
  '\\..\\..\\windows',
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  '1e999',
  '-1e999',
  '1e-999',
  '0x10',
  '0b11',
  '1_000',
  '-0',
  '00000001',
  '9007199254740993',
  '99999999999999999999999999',
  '1.5',
  '+1',
  ' 1',
  '1 ',
  'true',
  'null',
  'undefined',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  "' or '1'='1",
  '1;drop table products',
  '<script>alert(1)</script>',
  // A template-injection probe, on purpose not a template literal.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text is the input
  '${7*7}',
  '%F0%9F%92%BB',
  '%E2%80%AE',
  'e%CC%81',
  encodeURIComponent('ノートパソコン'),
  encodeURIComponent('\u202Eevil'),
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '6F1C2B1E-3D4A-4B5C-8D6E-7F8091A2B3C4',
  '{6f1c2b1e-3d4a-4b5c-8d6e-7f8091a2b3c4}',
  '6f1c2b1e3d4a4b5c8d6e7f8091a2b3c4',
  'a'.repeat(101),
  'x'.repeat(5000),
] as const

const SEARCH_KEYS = [
  'q',
  'brand',
  'condition',
  'min_ram_gb',
  'min_storage_gb',
  'max_price',
  'sort',
  'page',
  'page_size',
] as const
const ODD_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'q[]',
  'page[0]',
  'q[a]',
  '',
  '%00',
  'Q',
  'PAGE',
] as const

function randomValue(): string {
  switch (rng.int(4)) {
    case 0:
      return rng.pick(NASTY)
    case 1:
      return randomBytes(1 + rng.int(12))
    case 2:
      return encodeURIComponent(randomPrintable(1 + rng.int(30)))
    default:
      return String(rng.pick([0, -1, 1, 24, 60, 61, 1024, 65537, 10_000, 10_001, 2 ** 31, 2 ** 53]))
  }
}

function randomQuery(): string {
  const parts: string[] = []
  for (let i = 0, n = 1 + rng.int(4); i < n; i++) {
    const key = rng.int(5) === 0 ? rng.pick(ODD_KEYS) : rng.pick(SEARCH_KEYS)
    parts.push(`${key}=${randomValue()}`)
    // The same key twice: the query parser turns it into an array.
    if (rng.int(6) === 0) parts.push(`${key}=${randomValue()}`)
  }
  if (rng.int(8) === 0) parts.push('page') // a key without '='
  return parts.join('&')
}

function fuzzUrls(): string[] {
  const urls: string[] = []
  const idRoutes = ['/api/category/', '/api/products/']
  for (const route of idRoutes) {
    for (const value of NASTY) urls.push(`${route}${value}`)
    for (let i = 0; i < 40; i++) urls.push(`${route}${randomValue()}`)
    urls.push(`${route}${randomUUID()}/extra`, `${route}${randomUUID()}?x=1`, `${route}`)
  }
  for (let i = 0; i < 200; i++) urls.push(`/api/search?${randomQuery()}`)
  for (const value of NASTY)
    urls.push(`/api/search?q=${value}`, `/api/search?page=${value}&page_size=${value}`)
  urls.push(`/api/search?q=${'x'.repeat(100_000)}`, `/api/search?${'a=1&'.repeat(2000)}`)
  for (const route of ['/api/brands', '/api/advertised_product', '/api/health']) {
    for (let i = 0; i < 10; i++) urls.push(`${route}?${randomQuery()}`)
    urls.push(`${route}/${randomValue()}`)
  }
  for (let i = 0; i < 30; i++) urls.push(`/api/${randomValue()}/${randomValue()}`)
  // The test carrier's pages (labels and tracking), which take an id or a tracking code from the path.
  for (const route of ['/test-carrier/labels/', '/test-carrier/track/', '/test-carrier/v2/trackers/']) {
    for (const value of NASTY) urls.push(`${route}${value}`)
    for (let i = 0; i < 10; i++) urls.push(`${route}${randomValue()}`)
  }
  for (const value of ['%00', '..%2F', '%2e%2e', 'x'.repeat(3000), '%E0%A4%A']) {
    urls.push(`/api/category/${brandId}${value}`, `/api/products/${productId}/${value}`, `/${value}`)
  }
  return urls
}

function checkAnswer(url: string, status: number, contentType: string, body: string) {
  expect(status, url).toBeLessThan(500)
  if (!url.startsWith('/api')) return
  expect(contentType, url).toMatch(/^application\/json/)
  const json: unknown = JSON.parse(body)
  if (status >= 400) expect(ErrorBody.safeParse(json).success, `${url} -> ${body.slice(0, 200)}`).toBe(true)
}

describe('malformed requests', () => {
  const urls = fuzzUrls()

  it(`never answer 500, and /api answers JSON (${urls.length} requests)`, async () => {
    expect(urls.length).toBeGreaterThan(400)
    for (const url of urls) {
      const method = rng.pick(['GET', 'GET', 'GET', 'HEAD'] as const)
      const res = await t.app.inject({ method, url })
      if (method === 'HEAD') {
        expect(res.statusCode, `HEAD ${url}`).toBeLessThan(500)
        continue
      }
      checkAnswer(url, res.statusCode, String(res.headers['content-type']), res.body)
    }
  })

  it('still answer the well-formed requests correctly afterwards', async () => {
    expect((await t.app.inject(`/api/products/${productId}`)).statusCode).toBe(200)
    expect((await t.app.inject(`/api/category/${brandId}`)).json()).toHaveLength(1)
    expect((await t.app.inject('/api/health')).statusCode).toBe(200)
  })
})

describe('raw bytes on a real socket', () => {
  let port: number
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as net.AddressInfo).port
  })

  /** Sends the request line byte for byte: no client library normalises or encodes it. */
  function send(target: Buffer): Promise<{ status: number; contentType: string; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1')
      const chunks: Buffer[] = []
      socket.on('data', (c) => chunks.push(c))
      socket.on('error', reject)
      socket.on('end', () => {
        const text = Buffer.concat(chunks).toString('latin1')
        const [head = '', ...rest] = text.split('\r\n\r\n')
        const status = Number(head.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0)
        const contentType = head.match(/^content-type: (.+)$/im)?.[1] ?? ''
        resolve({ status, contentType, body: rest.join('\r\n\r\n') })
      })
      socket.write(
        Buffer.concat([
          Buffer.from('GET '),
          target,
          Buffer.from(' HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'),
        ]),
      )
    })
  }

  const targets = [
    '/api/category/../brands',
    '/api/products/./x',
    '/api/../api/brands',
    '/api/search?q=\u00ff\u00fe',
    '/api/search?q=caf\u00e9',
    '/api/category/\u00e9t\u00e9',
    '/api/products/%',
    '/api//products//x',
    '/media/../../etc/passwd',
  ]

  it.each(targets)('answers %s without a 500', async (target) => {
    const res = await send(Buffer.from(target, 'latin1'))
    expect(res.status, target).toBeGreaterThanOrEqual(200)
    expect(res.status, target).toBeLessThan(500)
    if (target.startsWith('/api')) expect(res.contentType, target).toMatch(/^application\/json/)
  })

  it('answers invalid UTF-8 in the path without a 500', async () => {
    for (const bytes of [[0xc3, 0x28], [0xe0, 0x80, 0x80], [0xff], [0xed, 0xa0, 0x80]]) {
      const target = Buffer.concat([Buffer.from('/api/products/'), Buffer.from(bytes)])
      const res = await send(target)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
    }
  })
})
