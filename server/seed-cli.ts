// `npm run db:seed`: fills the configured database with the demo data when it is empty.
import { ConfigError, loadConfig } from '#server/config'
import { createMediaStorage } from '#server/lib/media-storage'
import { openDatabase } from './database'
import { DataDirLockedError } from './db/lock'
import { seedDemo } from './demo/seed'

async function main() {
  const config = loadConfig()
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir: config.dataDir })
  try {
    const storage = await createMediaStorage(config, database.db)
    const started = performance.now()
    const summary = await seedDemo(database.db, storage, {
      info: (msg) => console.log(msg),
      warn: (_obj, msg) => console.warn(`WARNING: ${msg}`),
    })
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    if (!summary) {
      console.log('The database already has brands: nothing seeded.')
      return
    }
    console.log(
      `Seeded ${summary.brands} brands, ${summary.products} listings with ${summary.images} pictures, ` +
        `${summary.users} accounts and ${summary.bookings} bookings in ${seconds} s (${database.driver}).`,
    )
  } finally {
    await database.close()
  }
}

main().catch((err) => {
  console.error(err instanceof ConfigError || err instanceof DataDirLockedError ? err.message : err)
  process.exit(1)
})
