import type { FastifyInstance } from 'fastify'
import type { Config } from '#server/config'
import type { Database } from '#server/db/client'
import { PublicCache, PublicDataWatch } from '#server/lib/public-cache'

/**
 * The public cache, following the database's public version (decision 0043): every instance drops it as a commit
 * that changes public data is notified (within a poll when no notification comes), and this one before answering the
 * request that made the change.
 */
export async function publicCachePlugin(
  app: FastifyInstance,
  database: Database,
  config: Config,
): Promise<PublicCache> {
  const cache = new PublicCache(config.publicCacheTtlMs)
  if (!cache.isEnabled) return cache
  const watch = new PublicDataWatch(database.db, cache, app.log, 100, database.listen)
  await watch.start()
  // A read passes straight on (a callback hook: no promise per request); a change waits for the version's read.
  app.addHook('onSend', (req, _reply, payload, done) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return done(null, payload)
    watch.check().then(
      () => done(null, payload),
      (err) => {
        cache.clear()
        req.log.warn({ err }, 'Could not read the public data version; the public cache is dropped')
        done(null, payload)
      },
    )
  })
  app.addHook('onClose', async () => watch.stop())
  return cache
}
