import path from 'node:path'
import { buildApp } from './app'
import { ConfigError, loadConfig } from './config'
import { openDatabase } from './db/client'
import { DataDirLockedError } from './db/lock'
import { seedDemoIfEmpty } from './db/seed'
import { LocalMediaStorage } from './lib/storage'

async function main() {
  const config = loadConfig()
  const database = config.databaseUrl
    ? await openDatabase({ driver: 'postgres', url: config.databaseUrl })
    : await openDatabase({ driver: 'pglite', dataDir: config.dataDir })
  const storage = new LocalMediaStorage(path.join(config.dataDir, 'media'))
  const app = await buildApp({ config, database, storage })
  if (config.seedDemo && (await seedDemoIfEmpty(database.db, storage))) {
    app.log.info('Filled the empty database with demo data')
  }

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info(`${signal}: closing`)
    await app.close()
    await database.close()
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  await app.listen({ port: config.port, host: config.host })
  app.log.info(`Laptop Market on ${config.publicUrl} (database: ${database.driver})`)
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message)
  } else {
    console.error(err)
  }
  process.exit(1)
})
