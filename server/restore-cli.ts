// `npm run restore -- BACKUP_FOLDER`: brings a backup made by `npm run backup` into the configured database
// (DATABASE_URL, or PGlite in DATA_DIR) and DATA_DIR; both must be empty. Start the app afterwards as usual.
import { BackupError, restore } from './backup'
import { ConfigError, loadConfig } from './config'
import { DataDirLockedError } from './db/lock'

async function main() {
  const from = process.argv[2]
  if (!from) throw new BackupError('Usage: npm run restore -- BACKUP_FOLDER')
  const config = loadConfig()
  const manifest = await restore(config, from)
  const where = config.databaseUrl ? 'the database in DATABASE_URL' : `PGlite in ${config.dataDir}`
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${where}${manifest.photos ? ', with its photos' : ''}.`,
  )
}

main().catch((err) => {
  const known = err instanceof ConfigError || err instanceof BackupError || err instanceof DataDirLockedError
  console.error(known ? err.message : err)
  process.exit(1)
})
