import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppInstance, buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import type { Db } from '#server/db/client'
import { products } from '#server/db/schema'
import { acceptedEncoding } from '#server/lib/kept-json'
import { MemoryMediaStorage } from '#server/lib/storage'
import { signIn, TEST_PASSWORD } from '#server/test/auth-helpers'
import { createBooking, createBrand, createProduct, createUser } from '#server/test/factories'
import { openTestDatabase } from '#server/test/test-app'
import * as renderer from '../../../web/src/ssr/entry-server'
import { createReview } from '../reviews/reviews.service'
import { deferEntry, inlineStylesheets, scriptHashSource, splitHead } from './pages.routes'

const ORIGIN = 'http://shop.test'
/** A web folder holding the source index.html, so these tests need no `vite build`. */
const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-pages-'))
// With a built stylesheet linked in the head, as Vite writes it.
fs.writeFileSync(
  path.join(webDir, 'index.html'),
  fs
    .readFileSync(path.resolve(import.meta.dirname, '../../../web/index.html'), 'utf8')
    .replace('</head>', '<link rel="stylesheet" crossorigin href="/assets/index-1.css">\n  </head>'),
)
// With the boot script and the full app in Vite's manifest, as a build writes it.
fs.mkdirSync(path.join(webDir, '.vite'))
fs.writeFileSync(
  path.join(webDir, '.vite/manifest.json'),
  JSON.stringify({
    'src/boot.ts': { file: 'assets/boot-1.js', isEntry: true },
    'src/app/app.tsx': { file: 'assets/app-1.js', isDynamicEntry: true },
  }),
)
const BOOT_CODE = 'document.documentElement.dataset.booted="yes";'
fs.mkdirSync(path.join(webDir, 'assets'))
fs.writeFileSync(path.join(webDir, 'assets/boot-1.js'), `${BOOT_CODE}\n`)
const CSS = '.card{display:flex}'
fs.writeFileSync(path.join(webDir, 'assets/index-1.css'), `${CSS}\n`)

let app: AppInstance
let db: Db
let close: () => Promise<void>
let brand: { id: string; name: string }
let seller: Awaited<ReturnType<typeof createUser>>
let newest: Awaited<ReturnType<typeof createProduct>>
let sold: Awaited<ReturnType<typeof createProduct>>
let removed: Awaited<ReturnType<typeof createProduct>>

function tag(html: string, pattern: RegExp): string | undefined {
  return html.match(pattern)?.[1]
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1] ?? ''),
  )
}

/** The page's own HTML inside #root, without the head or the state the browser starts from. */
function body(html: string): string {
  return html.slice(html.indexOf('<div id="root">'), html.indexOf('<script type="application/json"'))
}

beforeAll(async () => {
  const opened = await openTestDatabase()
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_CACHE_TTL_MS: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_URL: ORIGIN,
    }),
    webDistDir: webDir,
  }
  app = await buildApp({
    config,
    database: opened.database,
    storage: new MemoryMediaStorage(),
    logger: false,
    pageRenderer: renderer,
    sitemapMaxUrls: 5,
  })
  await app.ready()
  db = opened.database.db
  close = async () => {
    await app.close()
    await opened.database.close()
    await opened.drop()
  }
  seller = await createUser(db, { role: 'seller', name: 'Dana Seller' })
  brand = await createBrand(db, { name: 'Lenovo' })
  const day = (n: number) => new Date(Date.UTC(2026, 9, n))
  await createProduct(db, { seller, brand, name: 'ThinkPad Old', postedOn: day(1), isAdvertised: true })
  sold = await createProduct(db, { seller, brand, name: 'ThinkPad Sold', postedOn: day(2), isSold: true })
  removed = await createProduct(db, {
    seller,
    brand,
    name: 'ThinkPad Gone',
    postedOn: day(3),
    removedAt: day(4),
  })
  newest = await createProduct(db, {
    seller,
    brand,
    name: 'ThinkPad X1 Carbon <Gen 9>',
    postedOn: day(5),
    resalePriceCents: 84950,
    isAdvertised: true,
    images: [{ cardUrl: '/media/x1-card.webp', detailUrl: '/media/x1-detail.webp' }],
  })
})

afterAll(async () => {
  await close()
  fs.rmSync(webDir, { recursive: true, force: true })
})

describe('server-rendered public pages', () => {
  it.each([
    ['/', 200, 'Laptop Market · Used laptops, graded honestly', `${ORIGIN}/`],
    ['/productcard', 200, 'All Laptops · Laptop Market', `${ORIGIN}/productcard`],
    ['/advertise', 200, 'Advertised Laptops · Laptop Market', `${ORIGIN}/advertise`],
    ['/blog', 200, 'Blog · Laptop Market', `${ORIGIN}/blog`],
    ['/about', 200, 'About Laptop Market · Laptop Market', `${ORIGIN}/about`],
    ['/contact', 200, 'Contact us · Laptop Market', `${ORIGIN}/contact`],
    ['/terms', 200, 'Terms of Service · Laptop Market', `${ORIGIN}/terms`],
    ['/privacy', 200, 'Privacy Policy · Laptop Market', `${ORIGIN}/privacy`],
    ['/guides', 200, 'Guides · Laptop Market', `${ORIGIN}/guides`],
    [
      '/guides/battery-health',
      200,
      'Reading battery health · Laptop Market',
      `${ORIGIN}/guides/battery-health`,
    ],
    [
      '/guides/handover-checklist',
      200,
      'What to check at handover · Laptop Market',
      `${ORIGIN}/guides/handover-checklist`,
    ],
    ['/guides/pricing', 200, 'Pricing from the price guide · Laptop Market', `${ORIGIN}/guides/pricing`],
    [
      '/guides/wiping-a-laptop',
      200,
      'Wiping a laptop before selling · Laptop Market',
      `${ORIGIN}/guides/wiping-a-laptop`,
    ],
    ['/guides/no-such-guide', 404, 'Page not found · Laptop Market', undefined],
    ['/no-such-page', 404, 'Page not found · Laptop Market', undefined],
  ])(
    '%s answers %i with its own title, one <title> and its canonical URL',
    async (url, status, title, canonical) => {
      const res = await app.inject({ url })
      expect(res.statusCode).toBe(status)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      const html = res.body
      expect(html.match(/<title>/g)).toHaveLength(1)
      expect(tag(html, /<title>([^<]*)<\/title>/)).toBe(title.replace('<', '&#60;'))
      expect(tag(html, /<link rel="canonical" href="([^"]*)"/)).toBe(canonical)
      expect(tag(html, /<meta name="description" content="([^"]+)"/)).toBeTruthy()
      // The page itself is in the HTML, not only an empty shell, and no inline script is needed to show it.
      expect(body(html).length).toBeGreaterThan(2000)
      expect(html).not.toMatch(/<script>/)
    },
  )

  it('the home page shows the advertised listings, newest first, with name and price', async () => {
    const html = body((await app.inject({ url: '/' })).body)
    const cards = [...html.matchAll(/data-testid="product-card"[\s\S]*?<\/article>/g)].map((m) => m[0])
    expect(cards).toHaveLength(2)
    expect(cards[0]).toContain('ThinkPad X1 Carbon &lt;Gen 9&gt;')
    expect(cards[0]).toContain('$849.50')
    expect(html).not.toContain('ThinkPad Sold')
    // The hero picture, the largest paint, is in the HTML at high priority.
    expect(html).toMatch(
      /<img[^>]*fetchPriority="high"[^>]*src="\/images\/hero-1.webp"|<img[^>]*src="\/images\/hero-1.webp"[^>]*fetchPriority="high"/,
    )
    // A phone fetches the 800-pixel version, from the preload in the head and from the picture itself.
    const srcset = '/images/hero-1-800.webp 800w, /images/hero-1.webp 1600w'
    expect((await app.inject({ url: '/' })).body).toContain(`imagesrcset="${srcset}"`)
    expect(html).toMatch(/<img[^>]*srcset="\/images\/hero-1-800\.webp 800w, \/images\/hero-1\.webp 1600w"/i)
  })

  it('/productcard lists available listings from the URL filters, with links to the next page', async () => {
    const html = body((await app.inject({ url: '/productcard?sort=price_desc' })).body)
    const first = html.match(/data-testid="product-card"[\s\S]*?<\/article>/)?.[0] ?? ''
    expect(first).toContain('ThinkPad X1 Carbon')
    expect(first).toContain('$849.50')
    expect(html).toContain('2 laptops found')
    expect(html).not.toContain('ThinkPad Gone')
  })

  it('/productcard past the last page says so and links to the last page, not "No laptops for sale yet"', async () => {
    const html = body((await app.inject({ url: '/productcard?page=99' })).body)
    expect(html).toContain('Page 99 is past the last page')
    expect(html).toContain('2 laptops found, on 1 page.')
    expect(html).toContain('Go to the last page (page 1)')
    expect(html).not.toContain('No laptops for sale yet')
  })

  it('a listing carries its title, share tags and JSON-LD Product + Offer that match it', async () => {
    const res = await app.inject({ url: `/products/${newest.id}` })
    expect(res.statusCode).toBe(200)
    const html = res.body
    expect(tag(html, /<title>([^<]*)<\/title>/)).toBe('ThinkPad X1 Carbon &#60;Gen 9&#62; · Laptop Market')
    expect(tag(html, /<link rel="canonical" href="([^"]*)"/)).toBe(`${ORIGIN}/products/${newest.id}`)
    expect(tag(html, /<meta property="og:image" content="([^"]*)"/)).toBe(`${ORIGIN}/media/x1-detail.webp`)
    expect(tag(html, /<meta name="twitter:card" content="([^"]*)"/)).toBe('summary_large_image')
    const [product] = jsonLd(html)
    expect(product).toMatchObject({
      '@type': 'Product',
      name: 'ThinkPad X1 Carbon <Gen 9>',
      brand: { '@type': 'Brand', name: 'Lenovo' },
      image: [`${ORIGIN}/media/x1-detail.webp`],
      offers: {
        '@type': 'Offer',
        price: '849.50',
        priceCurrency: 'USD',
        itemCondition: 'https://schema.org/UsedCondition',
        availability: 'https://schema.org/InStock',
        seller: { name: 'Dana Seller' },
      },
    })
    // No text in the data can close the script element early.
    expect(html).not.toMatch(/<script type="application\/ld\+json">[^<]*<Gen/)
    expect(body(html)).toContain('<h1')
    expect(body(html)).toMatch(/<img[^>]*\/media\/x1-detail.webp/)
  })

  it('a sold listing says Sold, stays readable, and its offer is SoldOut', async () => {
    const res = await app.inject({ url: `/products/${sold.id}` })
    expect(res.statusCode).toBe(200)
    expect(body(res.body)).toContain('ThinkPad Sold')
    expect(body(res.body)).toContain('Sold')
    expect(jsonLd(res.body)[0]).toMatchObject({ offers: { availability: 'https://schema.org/SoldOut' } })
  })

  it('a removed listing answers 410 and one that never existed 404, both with the not-found page', async () => {
    const gone = await app.inject({ url: `/products/${removed.id}` })
    expect(gone.statusCode).toBe(410)
    expect(body(gone.body)).toContain('Product not found')
    expect(gone.body).not.toContain('ThinkPad Gone')
    expect(gone.body).toContain('<meta name="robots" content="noindex"')
    const missing = await app.inject({ url: '/products/00000000-0000-4000-8000-000000000000' })
    expect(missing.statusCode).toBe(404)
    expect(body(missing.body)).toContain('Product not found')
    expect((await app.inject({ url: '/products/not-an-id' })).statusCode).toBe(404)
  })

  it('a listing waiting for review: its seller opens the page and reads that it waits; anyone else gets 410', async () => {
    const lister = await createUser(db, { role: 'seller', name: 'Wes Waiting', password: TEST_PASSWORD })
    const waiting = await createProduct(db, {
      seller: lister,
      brand,
      name: 'ThinkPad Waiting Review',
      reviewState: 'pending',
      reviewFlags: ['first_listing'],
    })
    const other = await createUser(db, { role: 'seller', password: TEST_PASSWORD })
    const asOther = await signIn(app, { email: other.email })
    for (const headers of [{}, { cookie: asOther.cookie }]) {
      const res = await app.inject({ url: `/products/${waiting.id}`, headers })
      expect(res.statusCode).toBe(410)
      expect(body(res.body)).toContain('Product not found')
      expect(res.body).not.toContain('ThinkPad Waiting Review')
    }
    const { cookie } = await signIn(app, { email: lister.email })
    const own = await app.inject({ url: `/products/${waiting.id}`, headers: { cookie } })
    expect(own.statusCode).toBe(200)
    expect(own.headers['cache-control']).toBe('private, no-store')
    expect(body(own.body)).toContain('ThinkPad Waiting Review')
    expect(body(own.body)).toContain('Waiting for review')
    expect(body(own.body)).not.toContain('Available')
    expect(own.body).toContain('<meta name="robots" content="noindex"')
    // Approved, it is everyone's page again, kept in the shared cache as before.
    await db.update(products).set({ reviewState: 'approved' }).where(eq(products.id, waiting.id))
    const open = await app.inject({ url: `/products/${waiting.id}` })
    expect(open.statusCode).toBe(200)
    expect(open.headers['cache-control']).toBe('no-cache')
    expect(body(open.body)).toContain('Available')
    // Taken down again, so the sitemap's counts below stay as the fixtures made them.
    await db.update(products).set({ removedAt: new Date() }).where(eq(products.id, waiting.id))
  })

  it.each([
    ['/', '/images/hero-1.webp', '/images/hero-1-800.webp 800w, /images/hero-1.webp 1600w'],
    ['/productcard', '/media/x1-card.webp', undefined],
    ['/products/:id', '/media/x1-detail.webp', '/media/x1-card.webp 640w, /media/x1-detail.webp 1280w'],
  ])(
    '%s asks for its largest picture first, at high priority, before its stylesheet and scripts',
    async (path, href, srcset) => {
      const html = (await app.inject({ url: path.replace(':id', newest.id) })).body
      const head = html.slice(0, html.indexOf('</head>'))
      // Right after the viewport tag, before the title, the stylesheet and any script.
      const first = head.match(/<meta name="viewport"[^>]*>\s*(<[^>]*>)/)?.[1] ?? ''
      expect(first).toMatch(/^<link rel="preload" as="image" /)
      expect(first).toContain(`href="${href}"`)
      expect(first).toContain('fetchpriority="high"')
      if (srcset) {
        expect(first).toContain(`imagesrcset="${srcset}"`)
        expect(first).toMatch(/imagesizes="[^"]+"/)
      } else expect(first).not.toContain('imagesrcset')
      // The stylesheet, the entry and the page's own code come after it.
      const picture = head.indexOf('rel="preload" as="image"')
      for (const later of ['<style>', '<script type="module"', 'rel="modulepreload"']) {
        const at = head.indexOf(later)
        if (at >= 0) expect(at).toBeGreaterThan(picture)
      }
    },
  )

  it('puts the stylesheet before the entry script and leaves out the module preloads of a built index.html', () => {
    const built = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="description" content="Shell" />
    <meta name="theme-color" content="#0f766e" />
    <title>Laptop Market</title>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
  </head>
  <body>
    `
    const { start, rest } = splitHead(built)
    expect(start).toMatch(/<meta name="viewport"[^>]*>$/)
    expect(rest).not.toContain('<title>')
    expect(rest).not.toContain('name="description"')
    expect(rest).not.toContain('modulepreload')
    expect(rest).toContain('<meta name="theme-color"')
    expect(rest.indexOf('rel="stylesheet"')).toBeLessThan(rest.indexOf('<script'))
    expect(rest).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>')
  })

  it('writes the stylesheet into a rendered page’s head, where the shell of signed-in pages links it', async () => {
    const html = (await app.inject({ url: '/productcard' })).body
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head).toContain(`<style>${CSS}</style>`)
    // The link stays for the lazy code's loader to find, disabled: a browser does not fetch it.
    expect(head.match(/<link rel="stylesheet"[^>]*>/g)).toEqual([
      '<link rel="stylesheet" crossorigin href="/assets/index-1.css" disabled>',
    ])
    // Before the boot script: the page is styled before any of its code runs.
    expect(html.indexOf('<style>')).toBeLessThan(html.indexOf('<script type="module">'))
    const shell = (await app.inject({ url: '/dashboard/myorders' })).body
    expect(shell).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css">')
    // A link written closed with a slash is disabled all the same.
    expect(inlineStylesheets('<link rel="stylesheet" href="/assets/index-1.css" />', webDir)).toMatch(
      /<link rel="stylesheet" href="\/assets\/index-1.css" disabled>$/,
    )
    // A link to a file the build does not hold is left as it is.
    const missing = '<link rel="stylesheet" href="/assets/gone.css">'
    expect(inlineStylesheets(missing, webDir)).toBe(missing)
    // A stylesheet that would end the element early is refused when the template is read, not sent broken.
    fs.writeFileSync(path.join(webDir, 'assets/bad.css'), '.a{content:"</style>"}')
    expect(() => inlineStylesheets('<link rel="stylesheet" href="/assets/bad.css">', webDir)).toThrow(
      'assets/bad.css cannot be written inside a <style> element',
    )
  })

  it('puts the page’s tags right after <head> in an index.html without a viewport tag', () => {
    const { start, rest } = splitHead(
      '<!doctype html><html lang="en"><head><title>Shell</title><script type="module" src="/assets/a.js"></script>',
    )
    expect(start).toBe('<!doctype html><html lang="en"><head>')
    expect(rest).toBe('<script type="module" src="/assets/a.js"></script>')
  })

  it('starts a rendered page’s code from the boot script, with the entry and the page’s chunks in an inert template', async () => {
    const res = await app.inject({ url: '/productcard' })
    const html = res.body
    const head = html.slice(0, html.indexOf('</head>'))
    // The boot script is in the page, not a request of its own, and the content security policy lets it run.
    const scripts = [...html.matchAll(/<script type="module"[^>]*>([^<]*)<\/script>/g)].map((m) => m[0])
    expect(scripts).toEqual([`<script type="module">${BOOT_CODE}</script>`])
    expect(html).not.toContain('boot-1.js')
    const scriptSrc = String(res.headers['content-security-policy']).match(/script-src ([^;]*)/)?.[1]
    expect(scriptSrc?.split(' ')).toContain(scriptHashSource(BOOT_CODE))
    const template = head.match(/<template id="page-code" data-entry="([^"]+)">(.*?)<\/template>/)
    expect(template?.[1]).toBe('/src/main.tsx')
    expect(template?.[2]).toBe('<link rel="modulepreload" crossorigin href="/assets/app-1.js">')
    // Nothing outside the template asks for the page's code before the boot does.
    expect(head.replace(template?.[0] ?? '', '')).not.toContain('modulepreload')
  })

  it('swaps the entry script for the boot script, and leaves a head without one as it is', () => {
    const rest =
      '<link rel="stylesheet" href="/assets/a.css"><script type="module" crossorigin src="/assets/index-1.js"></script>'
    const boot = '<script type="module">start()</script>'
    expect(deferEntry(rest, boot)).toEqual({
      rest: '<link rel="stylesheet" href="/assets/a.css"><script type="module">start()</script>',
      entry: '/assets/index-1.js',
    })
    expect(deferEntry('<link rel="stylesheet" href="/assets/a.css">', boot)).toEqual({
      rest: '<link rel="stylesheet" href="/assets/a.css">',
    })
  })

  it('pages for signed-in people are still the browser app, with 200', async () => {
    const res = await app.inject({ url: '/dashboard/myorders' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain('<div id="root"></div>')
  })
})

describe('compression and the page cache', () => {
  const decode = (res: { headers: Record<string, unknown>; rawPayload: Buffer }) =>
    res.headers['content-encoding'] === 'br'
      ? zlib.brotliDecompressSync(res.rawPayload).toString('utf8')
      : res.headers['content-encoding'] === 'gzip'
        ? zlib.gunzipSync(res.rawPayload).toString('utf8')
        : res.rawPayload.toString('utf8')

  it('picks br, then gzip, and honours q=0', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br')
    expect(acceptedEncoding('gzip;q=1.0, br;q=0')).toBe('gzip')
    expect(acceptedEncoding('identity')).toBeUndefined()
    expect(acceptedEncoding(undefined)).toBeUndefined()
  })

  it('sends a page compressed to a browser that accepts it, the same page as uncompressed', async () => {
    const plain = await app.inject({ url: '/productcard' })
    for (const encoding of ['br', 'gzip']) {
      const res = await app.inject({ url: '/productcard', headers: { 'accept-encoding': encoding } })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-encoding']).toBe(encoding)
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      // The page itself (the state beside it carries the time its data was read).
      expect(body(decode(res))).toBe(body(plain.body))
    }
  })

  it('with the cache on, keeps the rendered page, compressed once, until a write', async () => {
    const opened = await openTestDatabase()
    const cached = await buildApp({
      config: {
        ...loadConfig({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          PUBLIC_CACHE_TTL_MS: '60000',
          LISTING_REVIEW_FIRST: '0',
          PUBLIC_URL: ORIGIN,
        }),
        webDistDir: webDir,
      },
      database: opened.database,
      storage: new MemoryMediaStorage(),
      logger: false,
      pageRenderer: renderer,
    })
    try {
      await cached.ready()
      const cdb = opened.database.db
      const seller = await createUser(cdb, { role: 'seller' })
      const lenovo = await createBrand(cdb, { name: 'Lenovo' })
      await createProduct(cdb, { seller, brand: lenovo, name: 'ThinkPad Cached One' })
      const [br, gzip, plain] = await Promise.all(
        ['br', 'gzip', undefined].map((e) =>
          cached.inject({ url: '/productcard', headers: e ? { 'accept-encoding': e } : {} }),
        ),
      )
      for (const res of [br, gzip, plain]) {
        expect(res?.statusCode).toBe(200)
        expect(decode(res as NonNullable<typeof res>)).toContain('ThinkPad Cached One')
      }
      expect(br?.headers['content-encoding']).toBe('br')
      expect(gzip?.headers['content-encoding']).toBe('gzip')
      expect(plain?.headers['content-encoding']).toBeUndefined()
      expect(decode(br as NonNullable<typeof br>)).toBe(plain?.body)
      // A listing added through the API drops the cached page.
      const lister = await createUser(cdb, { role: 'seller', password: TEST_PASSWORD })
      const { cookie } = await signIn(cached, { email: lister.email })
      const listed = await cached.inject({
        method: 'POST',
        url: '/api/products',
        headers: { cookie, origin: ORIGIN },
        payload: {
          name: 'ThinkPad Cached Two',
          category_id: lenovo.id,
          seller_phone: '+1 555 010 3000',
          resale_price: 700,
          original_price: 1400,
          description: 'Works well, with a new battery and charger.',
          condition: 'Good',
          location: 'Austin, TX',
          uses: 2,
          processor: 'Intel Core i5-1135G7',
          ram_gb: 16,
          storage_gb: 512,
          screen_inches: 14,
          img: '/images/laptop-placeholder.svg',
        },
      })
      expect(listed.statusCode, listed.body).toBe(201)
      expect((await cached.inject({ url: '/productcard' })).body).toContain('ThinkPad Cached Two')
      // A listing waiting for review: its seller's own page is never kept for the next visitor.
      const waiting = await createProduct(cdb, {
        seller: lister,
        brand: lenovo,
        name: 'ThinkPad Cached Waiting',
        reviewState: 'pending',
      })
      const url = `/products/${waiting.id}`
      expect((await cached.inject({ url })).statusCode).toBe(410)
      const own = await cached.inject({ url, headers: { cookie } })
      expect(own.statusCode).toBe(200)
      expect(own.headers['cache-control']).toBe('private, no-store')
      expect(own.body).toContain('ThinkPad Cached Waiting')
      const after = await cached.inject({ url })
      expect(after.statusCode).toBe(410)
      expect(after.body).not.toContain('ThinkPad Cached Waiting')
    } finally {
      await cached.close()
      await opened.database.close()
      await opened.drop()
    }
  })
})

describe('sitemap and robots.txt', () => {
  it('robots.txt names the sitemap', async () => {
    const res = await app.inject({ url: '/robots.txt' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`)
    expect(res.body).toContain('Disallow: /dashboard')
    // An alert email's unsubscribe page is for its reader, not for search engines.
    expect(res.body).toContain('Disallow: /unsubscribe/')
  })

  it('past the per-file limit /sitemap.xml is an index; its files list pages, brands and available listings', async () => {
    // 8 fixed pages + 1 brand + 2 available listings = 11 URLs, over this app's 5 per file.
    const index = await app.inject({ url: '/sitemap.xml' })
    expect(index.statusCode).toBe(200)
    expect(index.body).toContain('<sitemapindex')
    const files = [...index.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? '')
    expect(files).toEqual([`${ORIGIN}/sitemap-0.xml`, `${ORIGIN}/sitemap-1.xml`])
    const locs: string[] = []
    for (const file of files) {
      const res = await app.inject({ url: new URL(file).pathname })
      expect(res.statusCode).toBe(200)
      expect(res.body).toContain('<urlset')
      locs.push(...[...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] ?? ''))
    }
    expect(locs).toContain(`${ORIGIN}/`)
    expect(locs).toContain(`${ORIGIN}/productcard?brand=${brand.id}`)
    expect(locs).toContain(`${ORIGIN}/products/${newest.id}`)
    expect(locs).toContain(`${ORIGIN}/sellers/${seller.id}`)
    expect(locs).not.toContain(`${ORIGIN}/products/${sold.id}`)
    expect(locs).not.toContain(`${ORIGIN}/products/${removed.id}`)
    expect(locs).toContain(`${ORIGIN}/guides`)
    expect(locs).toContain(`${ORIGIN}/guides/wiping-a-laptop`)
    expect((await app.inject({ url: '/sitemap-9.xml' })).statusCode).toBe(404)
  })
})

describe('the public seller page', () => {
  it('/sellers/{id} is rendered with its title, description, rating, laptops and published reviews', async () => {
    const buyer = await createUser(db, { role: 'buyer', name: 'Rae Buyer' })
    const laptop = await createProduct(db, { seller, brand, name: 'ThinkPad Reviewed', isSold: true })
    const booking = await createBooking(db, {
      buyer,
      product: laptop,
      isPaid: true,
      stage: 'completed',
      completedAt: new Date(),
    })
    const asUser = (u: typeof buyer) => ({ ...u, isVerified: false })
    await createReview(db, asUser(buyer), booking.id, {
      rating: 4,
      text: 'Honest <grading>, quick handover.',
    })
    await createReview(db, asUser(seller), booking.id, { rating: 5, text: 'Paid at once.' })

    const res = await app.inject({ url: `/sellers/${seller.id}` })
    expect(res.statusCode).toBe(200)
    const html = res.body
    expect(html.match(/<title>/g)).toHaveLength(1)
    expect(tag(html, /<title>([^<]*)<\/title>/)).toBe('Dana Seller, seller · Laptop Market')
    expect(tag(html, /<meta name="description" content="([^"]+)"/)).toContain(
      'rated 4.0 out of 5 from 1 review',
    )
    expect(tag(html, /<link rel="canonical" href="([^"]*)"/)).toBe(`${ORIGIN}/sellers/${seller.id}`)
    const page = body(html)
    expect(page).toContain('Dana Seller')
    expect(page).toContain('Honest &lt;grading&gt;, quick handover.')
    // Reviews the seller wrote about buyers are not on the seller's page.
    expect(page).not.toContain('Paid at once.')
    // Their available laptops, each card with the seller's rating.
    expect(page).toContain('ThinkPad X1 Carbon &lt;Gen 9&gt;')
    expect(page).not.toContain('ThinkPad Gone')
    expect(page).toMatch(/data-testid="seller-rating"/)
  })

  it('answers 404 for an unknown or deleted seller', async () => {
    const unknown = await app.inject({ url: '/sellers/no-such-seller' })
    expect(unknown.statusCode).toBe(404)
    expect(tag(unknown.body, /<title>([^<]*)<\/title>/)).toBe('Seller not found · Laptop Market')
    expect(unknown.body).toContain('noindex')
    const gone = await createUser(db, { role: 'seller', name: 'Gone Seller', disabled: true })
    expect((await app.inject({ url: `/sellers/${gone.id}` })).statusCode).toBe(404)
  })
})
