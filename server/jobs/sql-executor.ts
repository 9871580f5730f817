// pg-boss talks to the database through `executeSql(text, values)`. This runs it on the app's own Drizzle
// database or on a caller's transaction, whichever driver is underneath, so a job can be queued in the
// same transaction as the change that causes it.
import type PgBoss from 'pg-boss'

type Rows = { rows: Record<string, unknown>[] }
type PgliteLike = {
  exec(text: string): Promise<Rows[]>
  query(text: string, values?: unknown[]): Promise<Rows>
}
type PgLike = { query(text: string, values?: unknown[]): Promise<Rows> }

/** The driver's client under a Drizzle database or transaction (a PGlite, a PGlite transaction, a pg pool or client). */
function clientOf(db: object): PgliteLike | PgLike {
  // Drizzle keeps its driver client on the session; a transaction's session holds the transaction's client.
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client
  if (!client || typeof (client as PgLike).query !== 'function') {
    throw new Error('Jobs: cannot find the database client under this Drizzle database')
  }
  return client as PgliteLike | PgLike
}

export function sqlExecutor(db: object): PgBoss.Db {
  return clientExecutor(clientOf(db))
}

export function clientExecutor(client: PgliteLike | PgLike): PgBoss.Db {
  if ('exec' in client && typeof client.exec === 'function') {
    return {
      async executeSql(text, values) {
        // pg-boss sends several statements at once when it has no parameters (its schema, maintenance):
        // PGlite's `query` takes one statement, `exec` takes many and answers each.
        if (!values || values.length === 0) {
          const results = await client.exec(text)
          return { rows: results.at(-1)?.rows ?? [] }
        }
        const result = await client.query(text, values)
        return { rows: result.rows }
      },
    }
  }
  return {
    async executeSql(text, values) {
      const result = await client.query(text, values && values.length > 0 ? values : undefined)
      // Several statements at once give one result each; pg-boss reads the last.
      const last = Array.isArray(result) ? result.at(-1) : result
      return { rows: last?.rows ?? [] }
    },
  }
}
