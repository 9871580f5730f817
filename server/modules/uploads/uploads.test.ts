import { randomBytes } from 'node:crypto'
import zlib from 'node:zlib'
import { count, eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { UPLOAD_LIMITS, Upload } from '#contract/products'
import { uploads } from '#server/db/schema'
import { MEDIA_PREFIX } from '#server/lib/storage'
import { bearerFor, insertUser, type SignedIn, signUp } from '#server/test/auth-helpers'
import { fileBody, type MultipartBody, multipartBody } from '#server/test/multipart'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let seller: SignedIn
let buyerHeaders: Record<string, string>
let adminHeaders: Record<string, string>

beforeAll(async () => {
  t = await createTestApp()
  seller = await signUp(t.app, { role: 'seller' })
  buyerHeaders = await bearerFor(t.app, await insertUser(t.db, { role: 'buyer' }))
  adminHeaders = await bearerFor(t.app, await insertUser(t.db, { role: 'admin' }))
})

afterAll(async () => {
  await t?.close()
})

function postUpload(
  body: MultipartBody | undefined,
  headers: Record<string, string> = { cookie: seller.cookie },
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: { ...headers, ...body?.headers },
    ...(body ? { payload: body.payload } : {}),
  })
}

/** What was stored so far: upload rows and media objects. Refusals must leave both unchanged. */
async function storedSoFar() {
  const [row] = await t.db.select({ n: count() }).from(uploads)
  return { rows: row?.n ?? 0, files: t.storage.files.size }
}

function keyOf(url: string): string {
  expect(url.startsWith(MEDIA_PREFIX)).toBe(true)
  return url.slice(MEDIA_PREFIX.length)
}

/** A picture with some detail in it (a plain colour compresses to nothing and hides resizing mistakes). */
function picture(width: number, height: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#3a6ea5"/>
    <circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#f2c14e"/>
  </svg>`
  return sharp(Buffer.from(svg))
}

/** A PNG whose header claims the given size, with a single row of pixel data: a decompression bomb's shape. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlib.crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.writeUInt8(8, 8) // bit depth
  ihdr.writeUInt8(2, 9) // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(1 + width * 3))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** The tags of IFD0 and of the GPS IFD in an EXIF block: enough to prove a location is recorded. */
function exifTags(exif: Buffer): { ifd0: number[]; gps: number[] } {
  const tiff = exif.subarray(exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0)
  const little = tiff.toString('latin1', 0, 2) === 'II'
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at))
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at))
  const entries = (at: number) =>
    Array.from({ length: u16(at) }, (_, i) => ({ tag: u16(at + 2 + i * 12), value: u32(at + 10 + i * 12) }))
  const ifd0 = entries(u32(4))
  const gpsPointer = ifd0.find((e) => e.tag === 0x8825)
  return { ifd0: ifd0.map((e) => e.tag), gps: gpsPointer ? entries(gpsPointer.value).map((e) => e.tag) : [] }
}

/** Uploads and checks the answer, the row and the three stored WebP sizes; returns them for further checks. */
async function uploadAccepted(data: Buffer, filename: string, contentType: string) {
  const before = await storedSoFar()
  const res = await postUpload(fileBody(data, filename, contentType))
  expect(res.statusCode, res.body).toBe(201)
  const upload = Upload.parse(res.json())
  expect(await storedSoFar()).toEqual({ rows: before.rows + 1, files: before.files + 3 })
  const [row] = await t.db.select().from(uploads).where(eq(uploads.id, upload._id))
  expect(row).toMatchObject({
    uploaderId: seller.user.id,
    cardUrl: upload.card,
    mediumUrl: upload.medium,
    detailUrl: upload.detail,
  })
  const card = t.storage.files.get(keyOf(upload.card))
  const medium = upload.medium ? t.storage.files.get(keyOf(upload.medium)) : undefined
  const detail = t.storage.files.get(keyOf(upload.detail))
  if (!card || !medium || !detail) throw new Error('the three sizes were not stored')
  const cardMeta = await sharp(card).metadata()
  const mediumMeta = await sharp(medium).metadata()
  const detailMeta = await sharp(detail).metadata()
  expect([cardMeta.format, cardMeta.width, cardMeta.height]).toEqual(['webp', 640, 480])
  expect([mediumMeta.format, mediumMeta.width, mediumMeta.height]).toEqual(['webp', 960, 720])
  expect([detailMeta.format, detailMeta.width, detailMeta.height]).toEqual(['webp', 1280, 960])
  return { upload, row, card, medium, detail, cardMeta, mediumMeta, detailMeta }
}

async function expectRefused(
  res: Awaited<ReturnType<typeof postUpload>>,
  status: number,
  message: string | RegExp,
  before: { rows: number; files: number },
) {
  expect(res.statusCode, res.body).toBe(status)
  const body = ErrorBody.parse(res.json())
  expect(body.error.message).toMatch(message)
  if (status === 400) expect(body.error.fields?.file).toMatch(message)
  expect(await storedSoFar()).toEqual(before)
}

describe('POST /api/uploads: accepted photos', () => {
  it('strips EXIF and GPS from a JPEG and stores WebP at 640x480, 960x720 and 1280x960', async () => {
    const jpeg = await picture(1600, 1200)
      .jpeg({ quality: 90 })
      .withExif({
        IFD0: { Make: 'AcmeCam', Model: 'Pocket 7', Copyright: 'Jane Seller' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '30/1 16/1 2000/100',
          GPSLongitudeRef: 'W',
          GPSLongitude: '97/1 44/1 3000/100',
        },
      })
      .toBuffer()
    // The input really carries a location, or the test would prove nothing.
    const input = await sharp(jpeg).metadata()
    if (!input.exif) throw new Error('the test photo has no EXIF')
    const tags = exifTags(input.exif)
    expect(tags.ifd0).toContain(0x8825)
    expect(tags.gps).toEqual(expect.arrayContaining([0x0001, 0x0002, 0x0003, 0x0004]))
    expect(jpeg.includes('AcmeCam')).toBe(true)

    const { card, medium, detail, cardMeta, mediumMeta, detailMeta, row } = await uploadAccepted(
      jpeg,
      'IMG_0042.JPG',
      'image/jpeg',
    )
    for (const [bytes, meta] of [
      [card, cardMeta],
      [medium, mediumMeta],
      [detail, detailMeta],
    ] as const) {
      expect(meta.exif).toBeUndefined()
      expect(meta.xmp).toBeUndefined()
      expect(meta.iptc).toBeUndefined()
      expect(bytes.includes('EXIF')).toBe(false)
      expect(bytes.includes('AcmeCam')).toBe(false)
      expect(bytes.includes('Jane Seller')).toBe(false)
    }
    expect(row).toMatchObject({ width: 1600, height: 1200, bytes: jpeg.length })
  })

  it('accepts PNG and WebP, whatever name and type the browser declares', async () => {
    const png = await picture(800, 600).png().toBuffer()
    await uploadAccepted(png, 'laptop.png', 'image/png')
    const webp = await picture(1024, 768).webp().toBuffer()
    await uploadAccepted(webp, 'laptop.webp', 'image/webp')
    // The bytes decide, not the name: a real PNG named .jpg is still a PNG and is taken.
    await uploadAccepted(png, 'renamed.jpg', 'image/jpeg')
  })

  it('crops a 4000x1000 panorama to 4:3 instead of squashing or padding it', async () => {
    // Three colour bands of equal width: a squashed picture would show the red band at its left edge and
    // the blue band at its right edge; a 4:3 window (a third of the width) cannot reach both.
    const third = Math.round(4000 / 3)
    const bands = `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="1000">
      <rect x="0" width="${third}" height="1000" fill="#ff0000"/>
      <rect x="${third}" width="${third}" height="1000" fill="#00ff00"/>
      <rect x="${2 * third}" width="${4000 - 2 * third}" height="1000" fill="#0000ff"/>
    </svg>`
    const panorama = await sharp(Buffer.from(bands)).jpeg().toBuffer()
    const { card } = await uploadAccepted(panorama, 'pano.jpg', 'image/jpeg')
    const { data, info } = await sharp(card).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    const pixel = (x: number, y: number) => {
      const at = (y * info.width + x) * info.channels
      return [data[at] ?? 0, data[at + 1] ?? 0, data[at + 2] ?? 0]
    }
    const isRed = ([r, g, b]: number[]) => (r ?? 0) > 200 && (g ?? 0) < 60 && (b ?? 0) < 60
    const isBlue = ([r, g, b]: number[]) => (b ?? 0) > 200 && (r ?? 0) < 60 && (g ?? 0) < 60
    const middle = Math.floor(info.height / 2)
    expect(isRed(pixel(1, middle)) && isBlue(pixel(info.width - 2, middle))).toBe(false)
    // No padding either: the top and bottom rows are picture, not a black or white bar.
    for (const y of [0, info.height - 1]) {
      const [r, g, b] = pixel(Math.floor(info.width / 2), y)
      expect(Math.max(r ?? 0, g ?? 0, b ?? 0)).toBeGreaterThan(200)
      expect(Math.min(r ?? 0, g ?? 0, b ?? 0)).toBeLessThan(60)
    }
  })

  it('takes a photo of several megabytes (the JSON body limit does not apply to uploads)', async () => {
    const noise = await sharp(randomBytes(1200 * 900 * 3), { raw: { width: 1200, height: 900, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer()
    expect(noise.length).toBeGreaterThan(3 * 1024 * 1024)
    await uploadAccepted(noise, 'noisy.png', 'image/png')
  })

  it('serves the stored sizes from /media as long-cached WebP', async () => {
    const { upload, card, medium, detail } = await uploadAccepted(
      await picture(800, 600).jpeg().toBuffer(),
      'photo.jpg',
      'image/jpeg',
    )
    for (const [url, bytes] of [
      [upload.card, card],
      [upload.medium ?? '', medium],
      [upload.detail, detail],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('image/webp')
      expect(res.headers['cache-control']).toContain('immutable')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.rawPayload.equals(bytes)).toBe(true)
    }
    const missing = await t.app.inject({ method: 'GET', url: `${MEDIA_PREFIX}products/nope-card.webp` })
    expect(missing.statusCode).toBe(404)
  })
})

describe('POST /api/uploads: refused files change nothing', () => {
  const NOT_AN_IMAGE = 'This file is not a JPEG, PNG or WebP image'

  it('refuses a text file renamed .jpg', async () => {
    const before = await storedSoFar()
    const text = 'Dear buyer, this is a note and not a photograph at all.\n'.repeat(20)
    await expectRefused(
      await postUpload(fileBody(text, 'holiday.jpg', 'image/jpeg')),
      400,
      NOT_AN_IMAGE,
      before,
    )
  })

  it('refuses a text file declared image/png', async () => {
    const before = await storedSoFar()
    await expectRefused(await postUpload(fileBody('hello', 'a.png', 'image/png')), 400, NOT_AN_IMAGE, before)
  })

  it('refuses images in other formats: SVG (it can carry script) and GIF', async () => {
    const before = await storedSoFar()
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><script>alert(1)</script></svg>'
    await expectRefused(await postUpload(fileBody(svg, 'logo.png', 'image/png')), 400, NOT_AN_IMAGE, before)
    const gif = await picture(40, 30).gif().toBuffer()
    await expectRefused(await postUpload(fileBody(gif, 'anim.gif', 'image/gif')), 400, NOT_AN_IMAGE, before)
  })

  it('refuses an empty file and a damaged JPEG', async () => {
    const before = await storedSoFar()
    await expectRefused(
      await postUpload(fileBody(Buffer.alloc(0), 'empty.jpg', 'image/jpeg')),
      400,
      NOT_AN_IMAGE,
      before,
    )
    const jpeg = await picture(800, 600).jpeg().toBuffer()
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length / 2))
    await expectRefused(
      await postUpload(fileBody(truncated, 'cut.jpg', 'image/jpeg')),
      400,
      'This image could not be read; it may be damaged',
      before,
    )
  })

  it('refuses a file over 10 MB with a clear message', async () => {
    const before = await storedSoFar()
    const jpeg = await picture(64, 48).jpeg().toBuffer()
    const oversized = Buffer.concat([jpeg, Buffer.alloc(UPLOAD_LIMITS.maxBytes + 1 - jpeg.length)])
    expect(oversized.length).toBe(10 * 1024 * 1024 + 1)
    await expectRefused(
      await postUpload(fileBody(oversized, 'big.jpg', 'image/jpeg')),
      400,
      'Images must be 10 MB or smaller',
      before,
    )
  })

  it('refuses an image over 40 megapixels before decoding it', async () => {
    const before = await storedSoFar()
    // 8000x6000 = 48 MP in a file of a few kilobytes: only the header is read.
    const bomb = pngClaiming(8000, 6000)
    expect(bomb.length).toBeLessThan(10_000)
    expect(await sharp(bomb).metadata()).toMatchObject({ format: 'png', width: 8000, height: 6000 })
    await expectRefused(
      await postUpload(fileBody(bomb, 'huge.png', 'image/png')),
      400,
      'Images must be 40 megapixels or smaller',
      before,
    )
    // Just over the line: 8000x5001 = 40,008,000 pixels.
    await expectRefused(
      await postUpload(fileBody(pngClaiming(8000, 5001), 'wide.png', 'image/png')),
      400,
      'Images must be 40 megapixels or smaller',
      before,
    )
  })

  it('refuses a real 48-megapixel PNG', async () => {
    const before = await storedSoFar()
    const huge = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#c0c0c0' } })
      .png({ compressionLevel: 9 })
      .toBuffer()
    await expectRefused(
      await postUpload(fileBody(huge, 'huge.png', 'image/png')),
      400,
      'Images must be 40 megapixels or smaller',
      before,
    )
  })

  it('answers 400 when no file is sent', async () => {
    const before = await storedSoFar()
    await expectRefused(await postUpload(multipartBody([])), 400, 'Choose a photo to upload', before)
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { cookie: seller.cookie },
      payload: { file: 'photo.jpg' },
    })
    expect(json.statusCode).toBe(400)
    expect(ErrorBody.parse(json.json()).error.message).toMatch(/multipart/)
    expect(await storedSoFar()).toEqual(before)
  })

  it('lets only sellers upload: signed out 401, buyer and admin 403', async () => {
    const before = await storedSoFar()
    const jpeg = await picture(64, 48).jpeg().toBuffer()
    expect((await postUpload(fileBody(jpeg), {})).statusCode).toBe(401)
    expect((await postUpload(fileBody(jpeg), buyerHeaders)).statusCode).toBe(403)
    expect((await postUpload(fileBody(jpeg), adminHeaders)).statusCode).toBe(403)
    expect(await storedSoFar()).toEqual(before)
  })
})
