import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { type AppInstance, buildApp } from './app'
import { loadConfig } from './config'
import { LocalMediaStorage } from './lib/storage'
import { openTestDatabase } from './test/test-app'

/**
 * The app over a small built-web folder made here (an index page, a hashed script with .gz and
 * .br beside it), so these tests need no `vite build` and do not depend on it.
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-app-'))
const webDir = path.join(tmp, 'web')
const mediaDir = path.join(tmp, 'data', 'media')
const INDEX_HTML = `<!doctype html><html lang="en"><head><title>Laptop Market</title></head><body><div id="root"></div><script type="module" src="/assets/index-Ab12Cd34.js"></script></body></html>`
const SCRIPT = `export const greeting = ${JSON.stringify('a used laptop, checked and priced fairly. '.repeat(80))}\n`
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

let app: AppInstance
let storage: LocalMediaStorage
let closeDatabase: () => Promise<void>
let baseUrl: string

beforeAll(async () => {
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true })
  fs.writeFileSync(path.join(webDir, 'index.html'), INDEX_HTML)
  const script = path.join(webDir, 'assets', 'index-Ab12Cd34.js')
  fs.writeFileSync(script, SCRIPT)
  fs.writeFileSync(`${script}.gz`, zlib.gzipSync(SCRIPT))
  fs.writeFileSync(`${script}.br`, zlib.brotliCompressSync(SCRIPT))
  // A file beside the media folder that no /media/ URL may reach.
  fs.mkdirSync(mediaDir, { recursive: true })
  fs.writeFileSync(path.join(tmp, 'data', 'secret.png'), PNG)

  const { database, drop } = await openTestDatabase()
  closeDatabase = async () => {
    await database.close()
    await drop()
  }
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_CACHE_TTL_MS: '0' }),
    webDistDir: webDir,
  }
  storage = new LocalMediaStorage(mediaDir)
  await storage.put('products/ab/laptop-card.png', PNG)
  await storage.put('brands/acme.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))
  app = await buildApp({ config, database, storage, logger: false })
  await app.listen({ port: 0, host: '127.0.0.1' })
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await app?.close()
  await closeDatabase?.()
  fs.rmSync(tmp, { recursive: true, force: true })
})

/** A request over a real socket, with the path sent exactly as given (no normalising of `..`). */
function rawGet(requestPath: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    http
      .get({ hostname, port, path: requestPath }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
        )
      })
      .on('error', reject)
  })
}

function expectJsonError(
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
) {
  expect(res.statusCode).toBe(status)
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/)
  return ErrorBody.parse(JSON.parse(res.body)).error
}

describe('the web app', () => {
  it.each([
    '/',
    '/blog',
    '/advertise',
    '/productcard',
    '/login',
    '/signup',
    '/category/6f1c2b1e-3d4a-4b5c-8d6e-7f8091a2b3c4',
    '/products/6f1c2b1e-3d4a-4b5c-8d6e-7f8091a2b3c4',
    '/dashboard',
    '/dashboard/myorders',
    '/blog/',
  ])('serves index.html with 200 for the page %s, never cached', async (url) => {
    const res = await app.inject(url)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toBe(INDEX_HTML)
    expect(res.headers['cache-control']).toBe('no-cache')
  })

  it.each(['/nope', '/dashboard/nope', '/category', '/products/a/b', '/assets/missing-Zz99.js'])(
    'serves index.html with 404 for the unknown path %s',
    async (url) => {
      const res = await app.inject(url)
      expect(res.statusCode).toBe(404)
      expect(res.headers['content-type']).toMatch(/^text\/html/)
      expect(res.body).toBe(INDEX_HTML)
    },
  )

  it('does not let a browser keep index.html itself for an hour either', async () => {
    const res = await app.inject('/index.html')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-cache')
  })

  it('serves hashed assets with a year-long immutable cache', async () => {
    const res = await app.inject('/assets/index-Ab12Cd34.js')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.body).toBe(SCRIPT)
  })

  it.each([
    ['br', 'br', (b: Buffer) => zlib.brotliDecompressSync(b)],
    ['gzip', 'gzip', (b: Buffer) => zlib.gunzipSync(b)],
    ['gzip, deflate, br', 'br', (b: Buffer) => zlib.brotliDecompressSync(b)],
  ])('sends the precompressed file for accept-encoding: %s', async (accept, encoding, decode) => {
    const res = await app.inject({ url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': accept } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe(encoding)
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i)
    // Compressed once, from the file on disk: decoding once gives the script back.
    expect(decode(res.rawPayload).toString()).toBe(SCRIPT)
  })

  it('serves a real robots.txt as text, naming the sitemap', async () => {
    const res = await app.inject('/robots.txt')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain/)
    expect(res.body).toMatch(/^User-agent: \*/m)
    expect(res.body).toMatch(/^Disallow: \/api\//m)
    expect(res.body).toMatch(/^Sitemap: http:\/\/\S+\/sitemap\.xml$/m)
  })
})

describe('security headers', () => {
  it.each(['/', '/api/brands', '/api/nope', '/assets/index-Ab12Cd34.js'])('are on %s', async (url) => {
    const res = await app.inject(url)
    const csp = String(res.headers['content-security-policy'])
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ]) {
      expect(csp).toContain(directive)
    }
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(res.headers['referrer-policy']).toBe('no-referrer')
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin')
    expect(res.headers['x-powered-by']).toBeUndefined()
  })

  it('leaves HSTS to production, where the site is on HTTPS', async () => {
    expect((await app.inject('/')).headers['strict-transport-security']).toBeUndefined()
  })
})

describe('/api', () => {
  it.each([
    ['GET', '/api/nope'],
    ['GET', '/api'],
    ['GET', '/api/'],
    ['GET', '/api/brands/extra'],
    ['PUT', '/api/health'],
    ['POST', '/api/search'],
  ])('answers %s %s with a JSON 404, never the web app', async (method, url) => {
    const res = await app.inject({ method: method as 'GET', url })
    expect(expectJsonError(res, 404).code).toBe('NOT_FOUND')
  })

  it('compresses a large JSON response when the client accepts it', async () => {
    const res = await app.inject({ url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(zlib.gunzipSync(res.rawPayload).toString()).openapi).toMatch(/^3\./)
  })

  it('answers an unexpected failure with a logged 500 that shows no internals', async () => {
    const select = vi.spyOn(app.ctx.db, 'select').mockImplementation(() => {
      throw new Error('connection to 10.0.0.7 refused: password for app_user')
    })
    try {
      const res = await app.inject('/api/brands')
      const error = expectJsonError(res, 500)
      expect(error.code).toBe('INTERNAL')
      expect(error.message).toMatch(/^Something went wrong \(request .+\)$/)
      expect(res.body).not.toContain('10.0.0.7')
    } finally {
      select.mockRestore()
    }
  })
})

describe('OpenAPI', () => {
  type Operation = { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }
  type Doc = {
    openapi: string
    info: { title: string; version: string }
    paths: Record<string, Record<string, Operation>>
    components?: { schemas?: Record<string, unknown> }
  }
  let doc: Doc
  beforeAll(async () => {
    const res = await app.inject('/api/openapi.json')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    doc = res.json()
  })

  it('is an OpenAPI 3 document', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/)
    expect(doc.info.title).toBe('Laptop Market API')
    expect(doc.info.version).toBeTruthy()
    for (const [route, item] of Object.entries(doc.paths)) {
      expect(route).toMatch(/^\//)
      for (const [method, op] of Object.entries(item)) {
        expect(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace', 'parameters']).toContain(
          method,
        )
        if (method !== 'parameters') expect(Object.keys(op.responses).length).toBeGreaterThan(0)
      }
    }
  })

  it('resolves every $ref it uses', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []
    for (const ref of refs) {
      const target = ref.slice(8, -1)
      expect(target).toMatch(/^#\//)
      const found = target
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc)
      expect(found, target).toBeDefined()
    }
  })

  it('lists every public path with its parameters', () => {
    for (const route of [
      '/api/brands',
      '/api/advertised_product',
      '/api/category/{id}',
      '/api/products/{id}',
      '/api/search',
      '/api/health',
    ]) {
      expect(doc.paths[route]?.get?.responses, route).toHaveProperty('200')
    }
    expect(doc.paths['/api/category/{id}']?.get?.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path' }),
    )
    const searchParams = (doc.paths['/api/search']?.get?.parameters ?? []).map((p) => `${p.in}:${p.name}`)
    for (const name of [
      'q',
      'brand',
      'condition',
      'min_ram_gb',
      'min_storage_gb',
      'max_price',
      'sort',
      'page',
      'page_size',
    ]) {
      expect(searchParams).toContain(`query:${name}`)
    }
  })

  it('leaves out its own route and the media route', () => {
    expect(Object.keys(doc.paths)).not.toContain('/api/openapi.json')
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/media'))).toBe(false)
  })
})

describe('/api/docs', () => {
  it('answers HTML whose scripts are files the content security policy allows', async () => {
    const res = await app.inject('/api/docs')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    const scripts = [...res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const [, attrs, inline] of scripts) {
      expect(inline?.trim()).toBe('')
      const src = attrs?.match(/src="([^"]+)"/)?.[1]
      expect(src).toBeTruthy()
      const script = await app.inject(new URL(src ?? '', 'http://localhost/api/docs').pathname)
      expect(script.statusCode, src).toBe(200)
      expect(script.headers['content-type']).toMatch(/javascript/)
    }
  })
})

describe('/media/<key>', () => {
  it('serves stored bytes with their type and an immutable cache', async () => {
    const res = await app.inject('/media/products/ab/laptop-card.png')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.rawPayload.equals(PNG)).toBe(true)

    const svg = await app.inject('/media/brands/acme.svg')
    expect(svg.statusCode).toBe(200)
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/)
  })

  it.each([
    '/media/products/ab/missing.png',
    '/media/products/ab/laptop-card.exe',
    '/media/products/ab',
    '/media/',
  ])('answers %s with a JSON 404', async (url) => {
    expect(expectJsonError(await app.inject(url), 404).code).toBe('NOT_FOUND')
  })

  it.each([
    '/media/../secret.png',
    '/media/products/../../secret.png',
    '/media/%2e%2e/secret.png',
    '/media/..%2fsecret.png',
    '/media/products/..%2F..%2Fsecret.png',
    '/media//etc/passwd.png',
    '/media/./products/ab/laptop-card.png',
  ])('refuses the key in %s with a 404', async (url) => {
    const res = await rawGet(url)
    expect(res.status).toBe(404)
    expect(res.body).not.toContain('PNG')
  })
})
