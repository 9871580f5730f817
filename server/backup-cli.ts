// `npm run backup [-- FOLDER]`: a consistent backup of the configured database and DATA_DIR's photos into a new
// folder under FOLDER (./backups by default). See server/backup.ts and docs/deployment.md.
import { BackupError, backup } from './backup'
import { ConfigError, loadConfig } from './config'
import { DataDirLockedError } from './db/lock'

async function main() {
  const config = loadConfig()
  const dir = await backup(config, process.argv[2] ?? 'backups')
  console.log(`Backup written to ${dir}`)
  if (config.media.store === 's3') console.log('Photos live in the S3 bucket: back the bucket up on its own.')
}

main().catch((err) => {
  const known = err instanceof ConfigError || err instanceof BackupError || err instanceof DataDirLockedError
  console.error(
    err instanceof DataDirLockedError
      ? `${err.message}\nThe embedded database is backed up with the app stopped.`
      : known
        ? err.message
        : err,
  )
  process.exit(1)
})
