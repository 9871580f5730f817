import { UPLOAD_LIMITS, type Upload } from '#contract/products'
import { ApiError } from '../../lib/api-client'

/** The server's own wording, so a refused file reads the same whether the browser or the server caught it. */
export const PHOTO_MESSAGES = {
  type: 'This file is not a JPEG, PNG or WebP image',
  size: 'Images must be 10 MB or smaller',
  count: `At most ${UPLOAD_LIMITS.maxPhotos} photos`,
  required: 'Add at least one photo',
} as const

export const ACCEPTED_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const

/**
 * What the browser can tell before uploading: the declared type and the size. The server still reads
 * the bytes, so a renamed file is refused there with its own message.
 */
export function checkPhotoFile(file: Pick<File, 'type' | 'size'>): string | undefined {
  if (!(ACCEPTED_PHOTO_TYPES as readonly string[]).includes(file.type)) return PHOTO_MESSAGES.type
  if (file.size > UPLOAD_LIMITS.maxBytes) return PHOTO_MESSAGES.size
  return undefined
}

export type UploadProgress = { loaded: number; total: number }

export type UploadHandle = { promise: Promise<Upload>; abort: () => void }

function readError(xhr: XMLHttpRequest): ApiError {
  let body: { error?: { code?: string; message?: string; fields?: Record<string, string> } } | undefined
  try {
    body = JSON.parse(xhr.responseText)
  } catch {
    body = undefined
  }
  const error = body?.error
  const message =
    error?.fields?.file ??
    error?.message ??
    `The photo could not be uploaded (${xhr.status}). Please try again.`
  const code =
    (error?.code as ApiError['code'] | undefined) ?? (xhr.status >= 500 ? 'INTERNAL' : 'VALIDATION')
  return new ApiError(xhr.status, code, message, error?.fields)
}

/**
 * Sends one photo to POST /api/uploads (or `url`: a return's photos go to its booking) as multipart field "file". XMLHttpRequest rather than fetch because
 * only it reports upload progress, which the seller sees as a progress bar.
 */
export function uploadPhoto(
  file: Blob,
  onProgress: (progress: UploadProgress) => void,
  url = '/api/uploads',
): UploadHandle {
  const xhr = new XMLHttpRequest()
  const promise = new Promise<Upload>((resolve, reject) => {
    xhr.open('POST', url)
    xhr.responseType = 'text'
    xhr.setRequestHeader('accept', 'application/json')
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total })
    })
    xhr.addEventListener('load', () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as Upload)
        } catch {
          reject(
            new ApiError(xhr.status, 'INTERNAL', 'The server sent an unreadable answer. Please try again.'),
          )
        }
        return
      }
      reject(readError(xhr))
    })
    xhr.addEventListener('error', () =>
      reject(new ApiError(0, 'NETWORK', 'Could not reach the server. Check your connection and try again.')),
    )
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')))
    const body = new FormData()
    body.append('file', file, file instanceof File ? file.name : 'photo')
    xhr.send(body)
  })
  return { promise, abort: () => xhr.abort() }
}
