import { randomUUID } from 'node:crypto'
import sharp, { type Metadata } from 'sharp'
import { UPLOAD_LIMITS } from '#contract/products'
import { AppError } from '#server/lib/errors'
import type { MediaStorage } from '#server/lib/storage'

/**
 * Every listing photo is shown at 4:3, as WebP, in these sizes: cards take the 640-pixel one, a phone's gallery the
 * 960-pixel one (a phone screen 360–412 pixels wide at up to 2.5 device pixels each), a large screen's the 1280.
 */
export const PHOTO_SIZES = {
  card: { width: 640, height: 480 },
  medium: { width: 960, height: 720 },
  detail: { width: 1280, height: 960 },
} as const

const ACCEPTED = new Set(['jpeg', 'png', 'webp'])

export type StoredPhoto = {
  card: string
  medium: string
  detail: string
  width: number
  height: number
  bytes: number
}

/**
 * Turns an uploaded file into the listing's WebP sizes. The type is read from the bytes (the name and
 * the declared type are not trusted), the dimensions are checked before decoding the pixels, EXIF
 * orientation is applied, and no metadata (EXIF, GPS, ICC comments) survives: sharp writes none unless asked.
 */
export async function storeListingPhoto(storage: MediaStorage, data: Buffer): Promise<StoredPhoto> {
  if (data.length > UPLOAD_LIMITS.maxBytes)
    throw new AppError('VALIDATION', 'Images must be 10 MB or smaller')
  let meta: Metadata
  try {
    meta = await sharp(data, { limitInputPixels: false }).metadata()
  } catch {
    throw new AppError('VALIDATION', 'This file is not a JPEG, PNG or WebP image')
  }
  if (!meta.format || !ACCEPTED.has(meta.format)) {
    throw new AppError('VALIDATION', 'This file is not a JPEG, PNG or WebP image')
  }
  const width = meta.width ?? 0
  const height = meta.height ?? 0
  if (width < 1 || height < 1) throw new AppError('VALIDATION', 'This image has no pixels')
  if (width * height > UPLOAD_LIMITS.maxPixels) {
    throw new AppError('VALIDATION', 'Images must be 40 megapixels or smaller')
  }
  const base = `products/${randomUUID()}`
  const render = async (size: { width: number; height: number }) => {
    try {
      return await sharp(data, { limitInputPixels: UPLOAD_LIMITS.maxPixels, failOn: 'error' })
        .rotate()
        .resize(size.width, size.height, { fit: 'cover', position: 'attention' })
        .webp({ quality: 80 })
        .toBuffer()
    } catch {
      throw new AppError('VALIDATION', 'This image could not be read; it may be damaged')
    }
  }
  const card = await render(PHOTO_SIZES.card)
  const medium = await render(PHOTO_SIZES.medium)
  const detail = await render(PHOTO_SIZES.detail)
  await storage.put(`${base}-card.webp`, card)
  await storage.put(`${base}-medium.webp`, medium)
  await storage.put(`${base}-detail.webp`, detail)
  return {
    card: storage.url(`${base}-card.webp`),
    medium: storage.url(`${base}-medium.webp`),
    detail: storage.url(`${base}-detail.webp`),
    width,
    height,
    bytes: data.length,
  }
}
