import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { UPLOAD_LIMITS, Upload } from '#contract/products'
import { errorResponses } from '#server/lib/error-responses'
import { AppError } from '#server/lib/errors'
import { caller, role } from '#server/lib/guard'
import { readPhotoFile } from './read-photo'
import { createUpload } from './uploads.service'

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, storage, counters, config } = app.ctx
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 0, parts: 2, headerPairs: 100 },
  })

  app.post(
    '/uploads',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['products'],
        summary:
          'Seller: upload one listing photo (multipart field "file"; JPEG, PNG or WebP, ≤ 10 MB, ≤ 40 MP)',
        consumes: ['multipart/form-data'],
        response: { 201: Upload, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (req, reply) => {
      // Each photo costs about a second of CPU: the route has its own limit per client address, tighter than
      // the general one on changes.
      if (config.uploadsPerMinute > 0) {
        const { count, resetMs } = await counters.increment(`uploads:${req.ip}`, 60_000)
        if (count > config.uploadsPerMinute) {
          const seconds = Math.max(1, Math.ceil(resetMs / 1000))
          reply.header('retry-after', String(seconds))
          throw new AppError(
            'RATE_LIMITED',
            `Too many photos uploaded in a minute (at most ${config.uploadsPerMinute}). Try again in ${seconds} seconds.`,
          )
        }
      }
      const data = await readPhotoFile(req)
      const seller = caller(req)
      return reply
        .code(201)
        .send(await createUpload(db, storage, seller, data, config.unattachedPhotosPerSeller))
    },
  )
}
