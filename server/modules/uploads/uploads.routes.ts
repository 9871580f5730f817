import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { ErrorBody } from '#contract/errors'
import { UPLOAD_LIMITS, Upload } from '#contract/products'
import { caller, role } from '#server/lib/guard'
import { readPhotoFile } from './read-photo'
import { createUpload } from './uploads.service'

export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, storage } = app.ctx
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
        response: { 201: Upload, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (req, reply) => {
      const data = await readPhotoFile(req)
      return reply.code(201).send(await createUpload(db, storage, caller(req), data))
    },
  )
}
