import { type Database, type OpenOptions, openMigratedDatabase } from './db/client'
import { installJobQueues } from './jobs/install'
import { clientExecutor } from './jobs/sql-executor'

/**
 * Opens the database as every process of the app needs it: the migrations applied (db/), then the job queues
 * created (jobs/) under the same lock. The database layer itself knows nothing of jobs.
 */
export function openDatabase(opts: OpenOptions): Promise<Database> {
  return openMigratedDatabase({ ...opts, afterMigrate: (client) => installJobQueues(clientExecutor(client)) })
}
