import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { UPLOAD_LIMITS, Upload } from '#contract/products'
import { errorResponses } from '#server/lib/error-responses'
import { caller, role } from '#server/lib/guard'
import { readPhotoFile } from './read-photo'
import { countPhotoUpload, createUpload } from './uploads.service'

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
      await countPhotoUpload(counters, config.uploadsPerMinute, req.ip)
      const data = await readPhotoFile(req)
      const seller = caller(req)
      return reply
        .code(201)
        .send(await createUpload(db, storage, seller, data, config.unattachedPhotosPerSeller))
    },
  )
}
