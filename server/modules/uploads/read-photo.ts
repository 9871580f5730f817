import type { FastifyRequest } from 'fastify'
import { AppError } from '#server/lib/errors'

/** The one file of a multipart upload (field "file"), or a 400 that says what is wrong with the request. */
export async function readPhotoFile(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart())
    throw new AppError('VALIDATION', 'Send the photo as multipart/form-data in a "file" field')
  try {
    const file = await req.file()
    if (!file)
      throw new AppError('VALIDATION', 'Choose a photo to upload', { file: 'Choose a photo to upload' })
    return await file.toBuffer()
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
}
