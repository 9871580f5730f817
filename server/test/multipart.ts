// A multipart/form-data body for app.inject, built by hand so tests control every byte: the part's
// declared file name and type (which the server must not trust) and the file's contents.

import { randomBytes } from 'node:crypto'

export type MultipartPart = {
  /** The form field's name, e.g. "file". */
  name: string
  /** Present for a file part; the name the browser would send. */
  filename?: string
  /** The part's declared Content-Type; defaults to application/octet-stream for files. */
  contentType?: string
  data: Buffer | string
}

export type MultipartBody = { payload: Buffer; headers: { 'content-type': string } }

function quoted(value: string): string {
  return `"${value.replace(/["\\\r\n]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}"`
}

/** Builds the body and its Content-Type header (with the boundary) from the given parts, in order. */
export function multipartBody(parts: MultipartPart[]): MultipartBody {
  const boundary = `----LaptopMarketTest${randomBytes(12).toString('hex')}`
  const chunks: Buffer[] = []
  for (const part of parts) {
    const disposition = [`form-data; name=${quoted(part.name)}`]
    if (part.filename !== undefined) disposition.push(`filename=${quoted(part.filename)}`)
    const type = part.contentType ?? (part.filename !== undefined ? 'application/octet-stream' : undefined)
    const head = [`--${boundary}`, `Content-Disposition: ${disposition.join('; ')}`]
    if (type) head.push(`Content-Type: ${type}`)
    chunks.push(Buffer.from(`${head.join('\r\n')}\r\n\r\n`))
    chunks.push(typeof part.data === 'string' ? Buffer.from(part.data) : part.data)
    chunks.push(Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

/** The usual case: one file in the "file" field. */
export function fileBody(data: Buffer | string, filename = 'photo.jpg', contentType = 'image/jpeg') {
  return multipartBody([{ name: 'file', filename, contentType, data }])
}
