import fs from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { isPagePath } from '#contract/pages'
import type { AppInstance } from '#server/app-context'
import { sendError } from '#server/lib/error-handler'
import { MEDIA_PREFIX } from '#server/lib/storage'

/**
 * Answers a page path with the page rendered on the server, if it is one (server/modules/pages, which app.ts
 * passes in: plugins import no module); false leaves it to the browser app's shell.
 */
export type SendPage = (req: FastifyRequest, reply: FastifyReply) => Promise<boolean>

/**
 * The web app: its built files (when there are any), server-rendered public pages, and every other page path
 * answered with the browser app's shell (404 for paths that are no page). API and media paths that match no route
 * answer the API's 404.
 */
export async function webAppPlugin(app: AppInstance, opts: { webDir: string; sendPage: SendPage }) {
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
      if (await opts.sendPage(req, reply)) return reply
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
