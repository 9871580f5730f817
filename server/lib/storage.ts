import fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import { mediaObjects } from '#server/db/schema'

/**
 * Where uploaded and generated media live: a local folder (the embedded default), the PostgreSQL
 * database (the default with DATABASE_URL, so every instance serves every photo) or an S3-compatible
 * bucket. Keys are relative paths like `products/ab/cd.webp`; a key, once written, never changes content.
 */
export interface MediaStorage {
  put(key: string, data: Buffer): Promise<void>
  read(key: string): Promise<Buffer | undefined>
  exists(key: string): Promise<boolean>
  /** Deletes the object; a missing one is not an error. */
  remove(key: string): Promise<void>
  /** The URL the browser uses for the object. */
  url(key: string): string
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/i

export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.split('/').some((part) => part === '..' || part === '' || part === '.')
}

export const MEDIA_PREFIX = '/media/'

export class LocalMediaStorage implements MediaStorage {
  constructor(readonly root: string) {
    fs.mkdirSync(root, { recursive: true })
  }

  private resolve(key: string): string {
    if (!isSafeKey(key)) throw new Error(`Unsafe media key: ${key}`)
    return path.join(this.root, key)
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.resolve(key)
    await fsp.mkdir(path.dirname(file), { recursive: true })
    const tmp = `${file}.${process.pid}.tmp`
    await fsp.writeFile(tmp, data)
    await fsp.rename(tmp, file)
  }

  async read(key: string): Promise<Buffer | undefined> {
    try {
      return await fsp.readFile(this.resolve(key))
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
      throw err
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.read(key)) !== undefined
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.resolve(key), { force: true })
  }

  url(key: string): string {
    return `${MEDIA_PREFIX}${key}`
  }
}

/** Photos as rows of the database every instance shares. */
export class DatabaseMediaStorage implements MediaStorage {
  constructor(private readonly db: Db) {}

  async put(key: string, data: Buffer): Promise<void> {
    if (!isSafeKey(key)) throw new Error(`Unsafe media key: ${key}`)
    await this.db
      .insert(mediaObjects)
      .values({ key, data, bytes: data.length })
      .onConflictDoUpdate({ target: mediaObjects.key, set: { data, bytes: data.length } })
  }

  async read(key: string): Promise<Buffer | undefined> {
    const [row] = await this.db
      .select({ data: mediaObjects.data })
      .from(mediaObjects)
      .where(eq(mediaObjects.key, key))
      .limit(1)
    return row?.data
  }

  async exists(key: string): Promise<boolean> {
    const [row] = await this.db
      .select({ key: mediaObjects.key })
      .from(mediaObjects)
      .where(eq(mediaObjects.key, key))
      .limit(1)
    return row !== undefined
  }

  async remove(key: string): Promise<void> {
    await this.db.delete(mediaObjects).where(eq(mediaObjects.key, key))
  }

  url(key: string): string {
    return `${MEDIA_PREFIX}${key}`
  }
}

/** For tests: nothing touches the disk. */
export class MemoryMediaStorage implements MediaStorage {
  readonly files = new Map<string, Buffer>()
  async put(key: string, data: Buffer) {
    if (!isSafeKey(key)) throw new Error(`Unsafe media key: ${key}`)
    this.files.set(key, data)
  }
  async read(key: string) {
    return this.files.get(key)
  }
  async exists(key: string) {
    return this.files.has(key)
  }
  async remove(key: string) {
    this.files.delete(key)
  }
  url(key: string) {
    return `${MEDIA_PREFIX}${key}`
  }
}
