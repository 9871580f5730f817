import multipart from '@fastify/multipart'
import { ErrorBody } from '#contract/errors'
import { UPLOAD_LIMITS, Upload } from '#contract/products'
import type { AppInstance } from '#server/app'
import { uploads } from '#server/db/schema'
import { AppError } from '#server/lib/errors'
import { requireRole } from '#server/lib/session'
import { storeListingPhoto } from './images'

export async function uploadRoutes(app: AppInstance) {
  const { db, storage } = app.ctx
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 0, parts: 2, headerPairs: 100 },
  })

  app.post(
    '/uploads',
    {
      schema: {
        tags: ['products'],
        summary:
          'Seller: upload one listing photo (multipart field "file"; JPEG, PNG or WebP, ≤ 10 MB, ≤ 40 MP)',
        consumes: ['multipart/form-data'],
        response: { 201: Upload, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (req, reply) => {
      const seller = await requireRole(req, 'seller')
      if (!req.isMultipart())
        throw new AppError('VALIDATION', 'Send the photo as multipart/form-data in a "file" field')
      let data: Buffer | undefined
      try {
        const file = await req.file()
        if (!file)
          throw new AppError('VALIDATION', 'Choose a photo to upload', { file: 'Choose a photo to upload' })
        data = await file.toBuffer()
      } catch (err) {
        if (err instanceof AppError) throw err
        const code = (err as { code?: string }).code
        if (code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('VALIDATION', 'Images must be 10 MB or smaller', {
            file: 'Images must be 10 MB or smaller',
          })
        }
        throw new AppError('VALIDATION', 'The upload could not be read')
      }
      let photo: Awaited<ReturnType<typeof storeListingPhoto>>
      try {
        photo = await storeListingPhoto(storage, data)
      } catch (err) {
        if (err instanceof AppError) throw new AppError(err.code, err.message, { file: err.message })
        throw err
      }
      const [row] = await db
        .insert(uploads)
        .values({
          uploaderId: seller.id,
          cardUrl: photo.card,
          detailUrl: photo.detail,
          width: photo.width,
          height: photo.height,
          bytes: photo.bytes,
        })
        .returning({ id: uploads.id })
      if (!row) throw new AppError('INTERNAL', 'The photo could not be saved')
      return reply.code(201).send({ _id: row.id, card: photo.card, detail: photo.detail })
    },
  )
}
