import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { PassThrough, Writable } from 'node:stream'
import zlib from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { GUIDES } from '#contract/guides'
import { isPagePath, paths } from '#contract/pages'
import type { AppInstance } from '#server/app-context'
import { acceptedEncoding } from '#server/lib/kept-json'
import {
  countListedProducts,
  findSitemapProducts,
  findSitemapSellers,
  type PageRenderer,
  pageData,
} from './pages.service'

/**
 * React writes the page's hoistable tags (title, image preloads) first; the head already has them, and a
 * second <title> in the body is invalid HTML, so the first chunk loses them.
 */
const LEADING_HOISTABLES = /^(?:<link [^>]*>|<meta [^>]*>|<title>[^<]*<\/title>)+/

function pageBody(write: (chunk: Buffer | string) => void, end: () => void): Writable {
  let isFirst = true
  return new Writable({
    write(chunk, _enc, done) {
      if (isFirst) {
        isFirst = false
        write(Buffer.from(chunk).toString('utf8').replace(LEADING_HOISTABLES, ''))
      } else write(chunk)
      done()
    },
    final(done) {
      end()
      done()
    },
  })
}

/** The sitemap protocol's limit per file; past it /sitemap.xml becomes an index of files. */
export const SITEMAP_MAX_URLS = 50_000
const STATIC_URLS = [
  '/',
  '/productcard',
  '/advertise',
  '/blog',
  '/about',
  '/contact',
  '/terms',
  '/privacy',
  paths.guides(),
  ...GUIDES.map((g) => paths.guide(g.slug)),
]

type Template = {
  /** From `<!doctype html>` to the viewport tag: the page's own head tags go right after it. */
  start: string
  /** The rest of the head: the stylesheet, then the entry script. */
  rest: string
  tail: string
  /**
   * The page's code: with the boot script (web/src/boot.ts), an inert `<template>` naming the entry and the
   * module preloads of the page's own chunks, which the boot starts once the page is painted; without it, the
   * preloads themselves.
   */
  pageCode: (modules: string[]) => string
}

type ManifestEntry = { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }

/** The script a rendered page loads first (web/src/boot.ts), as Vite's manifest names it. */
const BOOT_MODULE = 'src/boot.ts'

function readManifest(webDir: string): Record<string, ManifestEntry> {
  const manifestFile = path.join(webDir, '.vite/manifest.json')
  return fs.existsSync(manifestFile) ? JSON.parse(fs.readFileSync(manifestFile, 'utf8')) : {}
}

/**
 * The boot script's code, written into each rendered page rather than fetched: under 1 kB, it was a request of its
 * own on a new connection beside the page's largest picture, and a phone's link (and Lighthouse's simulation of
 * one) counted it before the picture could be painted. Undefined when the build has no boot script.
 */
export function inlineBootScript(webDir: string): string | undefined {
  const boot = readManifest(webDir)[BOOT_MODULE]?.file
  const file = boot ? path.join(webDir, boot) : undefined
  if (!file || !fs.existsSync(file)) return undefined
  const code = fs.readFileSync(file, 'utf8').trim()
  if (/<\/script/i.test(code)) throw new Error(`${boot} cannot be written inside a <script> element`)
  return code
}

/** The CSP source that lets exactly this inline script run (its SHA-256), for the `script-src` directive. */
export function scriptHashSource(code: string): string {
  return `'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`
}

/** The hashes of the inline scripts rendered pages carry, for the content security policy. */
export function inlineScriptHashes(webDir: string): string[] {
  const code = inlineBootScript(webDir)
  return code ? [scriptHashSource(code)] : []
}

const STYLESHEET = /\s*<link rel="stylesheet"[^>]*>/g

/**
 * Reorders index.html's head for a page that arrives rendered. The page's own tags (its largest picture's
 * preload first) come before the stylesheet, and the stylesheet before the script: the browser asks for what it
 * meets first, and on a slow link the largest paint waits for whatever was asked for ahead of its picture.
 *
 * The module preloads Vite wrote for the browser-only shell are left out; a page's own code is preloaded after
 * the stylesheet (see `pageCode`).
 */
export function splitHead(head: string): { start: string; rest: string } {
  // After the viewport tag (the charset and viewport must stay first), or right after <head> when there is none.
  const at = head.match(/<meta name="viewport"[^>]*>/) ?? head.match(/<head[^>]*>/)
  if (!at || at.index === undefined) throw new Error('index.html has no <head>')
  const cut = at.index + at[0].length
  const rest = head
    .slice(cut)
    .replace(/\s*<title>[^<]*<\/title>/, '')
    .replace(/\s*<meta name="description"[^>]*>/, '')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
  const stylesheets = (rest.match(STYLESHEET) ?? []).join('')
  const withoutStyles = rest.replace(STYLESHEET, '')
  const scriptAt = withoutStyles.search(/\s*<script type="module"/)
  const ordered =
    scriptAt < 0
      ? withoutStyles.replace('</head>', `${stylesheets}\n  </head>`)
      : withoutStyles.slice(0, scriptAt) + stylesheets + withoutStyles.slice(scriptAt)
  return { start: head.slice(0, cut), rest: ordered }
}

/**
 * Writes the built stylesheets into the head (`<style>`) instead of linking them: on a phone's link (and Lighthouse's
 * simulation of one) the linked stylesheet was a request of its own that held the first paint, the page's largest
 * picture already loaded (decision 0133). The link stays, disabled, which a browser does not fetch: the lazy chunks'
 * loader (Vite's) looks for it before adding the stylesheet again. A link whose file is not in `webDir` is left as it is.
 */
export function inlineStylesheets(rest: string, webDir: string): string {
  return rest.replace(STYLESHEET, (link) => {
    const href = link.match(/href="\/([^"]+)"/)?.[1]
    const file = href ? path.join(webDir, href) : undefined
    if (!file || !fs.existsSync(file)) return link
    const css = fs.readFileSync(file, 'utf8').trim()
    if (/<\/style/i.test(css)) throw new Error(`${href} cannot be written inside a <style> element`)
    return `\n    <style>${css}</style>\n    ${link.trim().replace(/\s*\/?>$/, ' disabled>')}`
  })
}

const ENTRY_SCRIPT = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/

/**
 * Swaps the entry script of a reordered head for the boot script (`bootTag`, the whole element), and returns the
 * entry's address for the boot to start later. A head without an entry script is left as it is.
 */
export function deferEntry(rest: string, bootTag: string): { rest: string; entry?: string } {
  const script = rest.match(ENTRY_SCRIPT)
  if (!script?.[1]) return { rest }
  return { rest: rest.replace(script[0], () => bootTag), entry: script[1] }
}

/** index.html as Vite built it, cut where the page goes. */
function readTemplate(webDir: string): Template | undefined {
  const indexFile = path.join(webDir, 'index.html')
  if (!fs.existsSync(indexFile)) return undefined
  const html = fs.readFileSync(indexFile, 'utf8').replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '')
  const [head, tail] = html.split('<div id="root"></div>')
  if (head === undefined || tail === undefined) throw new Error('index.html has no <div id="root"></div>')
  const manifest = readManifest(webDir)
  const inEntry = new Set(
    Object.values(manifest)
      .filter((e) => e.isEntry)
      .flatMap((e) => [e.file, ...(e.imports ?? []).map((i) => manifest[i]?.file)]),
  )
  const preloads = (modules: string[]) => {
    const files = new Set<string>()
    const visit = (key: string) => {
      const entry = manifest[key]
      if (!entry || files.has(entry.file) || inEntry.has(entry.file)) return
      files.add(entry.file)
      for (const imported of entry.imports ?? []) visit(imported)
    }
    for (const key of modules) visit(key)
    return [...files].map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('')
  }
  const { start, rest } = splitHead(head)
  const styled = inlineStylesheets(rest, webDir)
  // A build has the entry script in the head; the source index.html, at the end of the body.
  const boot = manifest[BOOT_MODULE]?.file
  // Inline, as the content security policy allows by its hash (inlineScriptHashes); by its address when the
  // manifest names a file that is not there (tests with a manifest of their own).
  const bootCode = inlineBootScript(webDir)
  const bootTag = bootCode
    ? `<script type="module">${bootCode}</script>`
    : `<script type="module" src="/${boot}"></script>`
  const inHead = boot ? deferEntry(styled, bootTag) : { rest: styled }
  const inBody = boot && !inHead.entry ? deferEntry(tail, bootTag) : { rest: tail }
  const entry = inHead.entry ?? inBody.entry
  const pageCode = (modules: string[]) =>
    entry
      ? `<template id="page-code" data-entry="${entry}">${preloads(modules)}</template>`
      : preloads(modules)
  return { start, rest: inHead.rest, tail: inBody.rest, pageCode }
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function urlset(urls: { loc: string; lastmod?: string }[]): string {
  const items = urls.map(
    (u) => `<url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`,
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</urlset>\n`
}

type CachedPage = { status: number; body: Buffer; br: Buffer; gzip: Buffer }

/** A rendered page: its status, the HTML around it, and React's stream of the page itself. */
type PageParts = { status: number; head: string; tail: string; pipe: (destination: Writable) => void }
/** Renders the request's page with the shared data (what anyone sees) unless given a viewer's own. */
type RenderPage = (data?: ReturnType<typeof pageData>) => Promise<PageParts | undefined>

/** A listing's page: the one page whose answer may depend on who asks (sendViewersPage). */
const PRODUCT_PAGE = /^\/products\/[^/]+$/

const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }
const brotli = (body: Buffer) =>
  new Promise<Buffer>((resolve, reject) =>
    zlib.brotliCompress(body, BROTLI_OPTIONS, (err, out) => (err ? reject(err) : resolve(out))),
  )
const gzipped = (body: Buffer) =>
  new Promise<Buffer>((resolve, reject) =>
    zlib.gzip(body, { level: 6 }, (err, out) => (err ? reject(err) : resolve(out))),
  )

export type PageRoutesOptions = {
  renderer: PageRenderer | undefined
  webDir: string
  /** URLs per sitemap file; the protocol's 50,000 unless a test wants a smaller file. */
  sitemapMaxUrls?: number
}

/**
 * Public pages rendered on the server (with their data, title, canonical URL and share tags), the
 * sitemap and robots.txt. Pages signed-in people use are still the browser app's shell.
 */
export async function pageRoutes(app: AppInstance, opts: PageRoutesOptions) {
  const { db, cache, config } = app.ctx
  const origin = config.publicUrl.replace(/\/$/, '')
  const data = pageData(db, cache)
  // Without a built web app (API tests with the source renderer) the source index.html serves as the page.
  const template =
    readTemplate(opts.webDir) ??
    (opts.renderer ? readTemplate(path.resolve(import.meta.dirname, '../../../web')) : undefined)
  const maxUrls = opts.sitemapMaxUrls ?? SITEMAP_MAX_URLS

  app.get('/robots.txt', { schema: { hide: true } }, async (_req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `User-agent: *\nAllow: /\nDisallow: /dashboard\nDisallow: /unsubscribe/\nDisallow: /api/\n\nSitemap: ${origin}/sitemap.xml\n`,
      ),
  )

  async function brandUrls() {
    const brands = await data.brands()
    return brands.map((b) => ({ loc: `${origin}/productcard?brand=${b._id}` }))
  }

  /** Sellers with laptops for sale: their pages go in the first file, beside the brands. */
  async function sellerUrls() {
    const rows = await findSitemapSellers(db, 5000)
    return rows.map((r) => ({ loc: `${origin}/sellers/${encodeURIComponent(r.id)}` }))
  }

  async function productUrls(offset: number, limit: number) {
    const rows = await findSitemapProducts(db, offset, limit)
    return rows.map((r) => ({
      loc: `${origin}/products/${r.id}`,
      lastmod: new Date(r.postedOn).toISOString(),
    }))
  }

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_req, reply) => {
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=600')
    const fixed = [
      ...STATIC_URLS.map((p) => ({ loc: origin + p })),
      ...(await brandUrls()),
      ...(await sellerUrls()),
    ]
    const listings = await countListedProducts(db)
    if (fixed.length + listings <= maxUrls)
      return reply.send(urlset([...fixed, ...(await productUrls(0, maxUrls))]))
    // Past the limit: an index of files, the first with the pages and brands, then the listings.
    const files = 1 + Math.ceil(listings / maxUrls)
    const items = Array.from(
      { length: files },
      (_, i) => `<sitemap><loc>${origin}/sitemap-${i}.xml</loc></sitemap>`,
    )
    return reply.send(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join('\n')}\n</sitemapindex>\n`,
    )
  })

  app.get<{ Params: { n: string } }>('/sitemap-:n.xml', { schema: { hide: true } }, async (req, reply) => {
    const n = /^\d{1,6}$/.test(req.params.n) ? Number(req.params.n) : -1
    const listings = await countListedProducts(db)
    if (n < 0 || n > Math.ceil(listings / maxUrls)) return reply.callNotFound()
    reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=600')
    if (n === 0)
      return reply.send(
        urlset([
          ...STATIC_URLS.map((p) => ({ loc: origin + p })),
          ...(await brandUrls()),
          ...(await sellerUrls()),
        ]),
      )
    return reply.send(urlset(await productUrls((n - 1) * maxUrls, maxUrls)))
  })

  /** Answers a page request with server-rendered HTML; false when this page is left to the browser. */
  async function sendPage(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const renderer = opts.renderer
    if (!renderer || !template) return false
    const url = new URL(req.url, origin)
    const isKnownPage = isPagePath(url.pathname)
    if (!renderer.isServerRendered(url.pathname, isKnownPage)) return false
    // A page's HTML is the same for everyone (the session is not in it) and changes only with the catalogue,
    // so it is kept like the public API answers: for the TTL, and dropped on every instance by any write. The one
    // exception, a listing off sale as its seller sees it, is never kept (sendViewersPage).
    const cacheKey = `page:${url.pathname}${url.search}`
    const render: RenderPage = async (pageData = data) => {
      const page = await renderer.renderPage({
        url: url.pathname + url.search,
        origin,
        isKnownPage,
        data: pageData,
        onError: (error) => req.log.error({ err: error }, 'page render failed'),
      })
      if (!page) return undefined
      const head = `${template.start}\n    ${renderer.renderHead(page.head)}${template.rest.replace(
        '</head>',
        `  ${template.pageCode(page.modules)}\n  </head>`,
      )}`
      const tail = `</div><script type="application/json" id="page-state">${renderer.scriptJson(page.state)}</script>${template.tail}`
      return { status: page.status, head: `${head}<div id="root">`, tail, pipe: page.pipe }
    }
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
    if (cache.isEnabled) {
      // Kept as bytes, compressed once per fill: a hit costs no rendering, encoding or compressing.
      const html = await cache.remember(cacheKey, async (): Promise<CachedPage | undefined> => {
        const page = await render()
        if (!page) return undefined
        const chunks: Buffer[] = [Buffer.from(page.head)]
        await new Promise<void>((resolve, reject) => {
          const sink = pageBody((chunk) => chunks.push(Buffer.from(chunk)), resolve)
          sink.on('error', reject)
          page.pipe(sink)
        })
        chunks.push(Buffer.from(page.tail))
        const body = Buffer.concat(chunks)
        const [br, gzip] = await Promise.all([brotli(body), gzipped(body)])
        return { status: page.status, body, br, gzip }
      })
      if (!html) return false
      if (html.status >= 400 && (await sendViewersPage(req, reply, url, render))) return true
      const encoding = acceptedEncoding(req.headers['accept-encoding'])
      if (encoding) reply.header('content-encoding', encoding)
      await reply.code(html.status).send(encoding ? html[encoding] : html.body)
      return true
    }
    const page = await render()
    if (!page) return false
    if (page.status >= 400 && (await sendViewersPage(req, reply, url, render))) return true
    await streamPage(req, reply, page)
    return true
  }

  /**
   * A listing off sale (waiting for review, rejected) has a page for its seller and admins only. When the public
   * answer is "not found" and the request is signed in, the page is rendered again as that viewer may see it, sent
   * as private and never kept in the shared cache. A page everyone sees costs no session read.
   */
  async function sendViewersPage(
    req: FastifyRequest,
    reply: FastifyReply,
    url: URL,
    render: RenderPage,
  ): Promise<boolean> {
    if (!PRODUCT_PAGE.test(url.pathname)) return false
    const viewer = await app.ctx.sessions.get(req).catch(() => null)
    if (!viewer) return false
    const page = await render(pageData(db, cache, viewer))
    if (!page) return false
    reply.header('cache-control', 'private, no-store')
    await streamPage(req, reply, page)
    return true
  }

  /** Sends a page as React renders it, compressed as the client accepts. */
  async function streamPage(req: FastifyRequest, reply: FastifyReply, page: PageParts) {
    const body = new PassThrough()
    body.write(page.head)
    const sink = pageBody(
      (chunk) => body.write(chunk),
      () => body.end(page.tail),
    )
    sink.on('error', (error) => body.destroy(error))
    page.pipe(sink)
    // Pages are answered by the not-found handler, which the compression plugin's route hooks do not reach.
    const encoding = acceptedEncoding(req.headers['accept-encoding'])
    if (encoding) {
      reply.header('content-encoding', encoding)
      const compressor =
        encoding === 'br' ? zlib.createBrotliCompress(BROTLI_OPTIONS) : zlib.createGzip({ level: 6 })
      await reply.code(page.status).send(body.pipe(compressor))
      return
    }
    await reply.code(page.status).send(body)
  }

  return { sendPage }
}
