// `npm run media:migrate [-- --from FOLDER]`: copies photos kept in a local folder (DATA_DIR/media by default)
// into the configured store (the database with DATABASE_URL, or the S3 bucket). Safe to run again.
import path from 'node:path'
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config'
import { openDatabase } from './database'
import { DataDirLockedError } from './db/lock'
import { copyMediaFolder, createMediaStorage } from './lib/media-storage'

async function main() {
  const { values } = parseArgs({ options: { from: { type: 'string' } } })
  const config = loadConfig()
  const from = path.resolve(values.from ?? path.join(config.dataDir, 'media'))
  if (config.media.store === 'local') {
    console.error(
      'The configured media store is the local folder: set DATABASE_URL (photos in the database) or ' +
        'S3_BUCKET and its settings (photos in a bucket), then run this again.',
    )
    process.exit(2)
  }
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir: config.dataDir })
  try {
    const store = await createMediaStorage(config, database.db)
    const started = performance.now()
    const { copied, skipped } = await copyMediaFolder(from, store)
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(
      `Copied ${copied} files from ${from} to the ${config.media.store} store in ${seconds} s ` +
        `(${skipped} already there).`,
    )
  } finally {
    await database.close()
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError || err instanceof DataDirLockedError ? err.message : err)
  process.exit(1)
})
