// The database a search bench reads: the one DATABASE_URL names, which `npm run bench:scale` filled, opened and
// migrated, with its brands' ids (what the searches are drawn from).
import { sql } from 'drizzle-orm'
import { openMigratedDatabase } from '../server/db/client'
import { rowsOf } from '../server/lib/paging'

export async function openFilledDatabase() {
  const url = process.env.DATABASE_URL
  if (!url) {
    console.error('DATABASE_URL must name a PostgreSQL database that `npm run bench:scale` filled')
    process.exit(1)
  }
  const { db, close } = await openMigratedDatabase({ driver: 'postgres', url })
  const brandIds = (
    await rowsOf<{ id: string }>(db, sql`select id::text as id from brands order by name`)
  ).map((r) => r.id)
  return { db, close, brandIds }
}
