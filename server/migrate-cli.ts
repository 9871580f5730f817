// `npm run db:migrate`: applies every committed migration to the configured database.
import { ConfigError, loadConfig } from '#server/config'
import { openDatabase } from './database'
import { DataDirLockedError } from './db/lock'

async function main() {
  const config = loadConfig()
  // Opening a database applies the migrations it is missing.
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir: config.dataDir })
  await database.close()
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`
  console.log(`Migrations applied: ${where} is up to date.`)
}

main().catch((err) => {
  console.error(err instanceof ConfigError || err instanceof DataDirLockedError ? err.message : err)
  process.exit(1)
})
