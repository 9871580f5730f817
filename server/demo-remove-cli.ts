// `npm run demo:remove`: nobody can sign in as the demo seed's accounts again (their password is public); a
// production server refuses to start until they are removed.
import { ConfigError, loadConfig } from './config'
import { openDatabase } from './database'
import { DataDirLockedError } from './db/lock'
import { removeDemoAccountsNow } from './demo-removal'

async function main() {
  const config = loadConfig()
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir: config.dataDir })
  try {
    console.log(await removeDemoAccountsNow(database.db, config))
  } finally {
    await database.close()
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError || err instanceof DataDirLockedError ? err.message : err)
  process.exit(1)
})
