import type fs from 'node:fs'
import fsp from 'node:fs/promises'
import path from 'node:path'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { DatabaseMediaStorage, isSafeKey, LocalMediaStorage, type MediaStorage } from './storage'

/** The store the configuration names; the S3 client is loaded only when a bucket is configured. */
export async function createMediaStorage(config: Config, db: Db): Promise<MediaStorage> {
  if (config.media.store === 's3') {
    const { S3MediaStorage } = await import('./s3-storage')
    return new S3MediaStorage(config.media)
  }
  if (config.media.store === 'database') return new DatabaseMediaStorage(db)
  return new LocalMediaStorage(path.join(config.dataDir, 'media'))
}

/** Every file under a media folder, as store keys (`products/ab/cd.webp`), in a stable order. */
async function* keysUnder(root: string, dir = ''): AsyncGenerator<string> {
  let entries: fs.Dirent[]
  try {
    entries = await fsp.readdir(path.join(root, dir), { withFileTypes: true })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
    throw err
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const key = dir ? `${dir}/${entry.name}` : entry.name
    if (entry.isDirectory()) yield* keysUnder(root, key)
    else if (entry.isFile() && isSafeKey(key) && !key.endsWith('.tmp')) yield key
  }
}

/**
 * Copies the photos of a local media folder into another store, keeping their keys (so the URLs saved in
 * listings keep working). A key the store already holds is left alone, so a stopped copy can run again.
 */
export async function copyMediaFolder(
  root: string,
  to: MediaStorage,
  onKey: (key: string, copied: boolean) => void = () => {},
): Promise<{ copied: number; skipped: number }> {
  let copied = 0
  let skipped = 0
  for await (const key of keysUnder(root)) {
    if (await to.exists(key)) {
      skipped += 1
      onKey(key, false)
      continue
    }
    await to.put(key, await fsp.readFile(path.join(root, key)))
    copied += 1
    onKey(key, true)
  }
  return { copied, skipped }
}
