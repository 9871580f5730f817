import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import { isPagePath } from '#contract/pages'
import type { AppInstance } from '#server/app-context'
import { sendError } from '#server/lib/error-handler'
import { MEDIA_PREFIX } from '#server/lib/storage'
import { pageRoutes } from '#server/modules/pages/pages.routes'
import type { PageRenderer } from '#server/modules/pages/pages.service'

/**
 * The web app: its built files (when there are any), server-rendered public pages, and every other page path
 * answered with the browser app's shell (404 for paths that are no page). API and media paths that match no route
 * answer the API's 404.
 */
export async function webAppPlugin(
  app: AppInstance,
  opts: { webDir: string; renderer: PageRenderer | undefined; sitemapMaxUrls?: number },
) {
  const { webDir } = opts
  const indexFile = path.join(webDir, 'index.html')
  if (fs.existsSync(indexFile)) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        // Every page answer is index.html (direct or as the SPA fallback): a cached copy would point at
        // hashed assets that the next deploy removes, so browsers must revalidate it every time.
        const cacheControl = filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : filePath.endsWith('.html')
            ? 'no-cache'
            : 'public, max-age=3600'
        reply.header('cache-control', cacheControl)
      },
    })
  }

  const pages = await pageRoutes(app, {
    renderer: opts.renderer,
    webDir,
    sitemapMaxUrls: opts.sitemapMaxUrls,
  })

  app.setNotFoundHandler(async (req, reply) => {
    const url = new URL(req.url, 'http://localhost')
    if (
      url.pathname.startsWith('/api/') ||
      url.pathname === '/api' ||
      url.pathname.startsWith(MEDIA_PREFIX)
    ) {
      return sendError(reply, 404, 'NOT_FOUND', `No route ${req.method} ${url.pathname}`)
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (await pages.sendPage(req, reply)) return reply
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && fs.existsSync(indexFile)) {
      return reply
        .code(isPagePath(url.pathname) ? 200 : 404)
        .header('cache-control', 'no-cache')
        .sendFile('index.html', webDir)
    }
    return sendError(reply, 404, 'NOT_FOUND', `No route ${req.method} ${url.pathname}`)
  })
}
