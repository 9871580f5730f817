import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { isSafeKey, MEDIA_PREFIX, type MediaStorage } from './storage'

export type S3Settings = {
  bucket: string
  endpoint: string | undefined
  region: string
  accessKeyId: string | undefined
  secretAccessKey: string | undefined
  forcePathStyle: boolean
}

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  svg: 'image/svg+xml',
}

function isMissing(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)
  )
}

/**
 * Photos in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2...). The app still serves them under /media/,
 * so pages, cache headers and ETags are the same whichever store holds the bytes, and the bucket stays
 * private. Without keys the SDK's usual chain (environment, instance role) applies.
 */
export class S3MediaStorage implements MediaStorage {
  private readonly client: S3Client

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    })
  }

  async put(key: string, data: Buffer): Promise<void> {
    if (!isSafeKey(key)) throw new Error(`Unsafe media key: ${key}`)
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: data,
        ContentType: CONTENT_TYPES[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream',
      }),
    )
  }

  async read(key: string): Promise<Buffer | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }))
      if (!answer.Body) return undefined
      return Buffer.from(await answer.Body.transformToByteArray())
    } catch (err) {
      if (isMissing(err)) return undefined
      throw err
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }))
      return true
    } catch (err) {
      if (isMissing(err)) return false
      throw err
    }
  }

  async remove(key: string): Promise<void> {
    if (!isSafeKey(key)) throw new Error(`Unsafe media key: ${key}`)
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }))
  }

  url(key: string): string {
    return `${MEDIA_PREFIX}${key}`
  }

  close(): void {
    this.client.destroy()
  }
}
