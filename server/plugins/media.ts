import crypto from 'node:crypto'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { sendError } from '#server/lib/error-handler'
import { isSafeKey, MEDIA_PREFIX, type MediaStorage } from '#server/lib/storage'

const MEDIA_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
}

/** Photos under /media/, from whichever store holds them, with a year of caching and an ETag of their bytes. */
export function mediaPlugin(app: FastifyInstance, storage: MediaStorage): void {
  app.get<{ Params: { '*': string } }>(`${MEDIA_PREFIX}*`, { schema: { hide: true } }, async (req, reply) => {
    const key = req.params['*']
    const type = MEDIA_TYPES[path.extname(key).toLowerCase()]
    const data = type && isSafeKey(key) ? await storage.read(key) : undefined
    if (!data || !type) return sendError(reply, 404, 'NOT_FOUND', 'Image not found')
    // The same bytes give the same ETag on every instance and from every store.
    const etag = `"${crypto.createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
    const asked = req.headers['if-none-match']?.split(',') ?? []
    if (asked.some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')) {
      return reply.code(304).send()
    }
    return reply.type(type).send(data)
  })
}
