import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { migratedImageBytesForTest, openTestDatabase } from './test-app'

// Every PGlite test database of a worker loads the run's migrated image from one shared ArrayBuffer (SharedImage):
// safe only while PGlite copies the files out of it and never writes to it, and reads it through arrayBuffer().
describe.skipIf(process.env.TEST_DB === 'postgres')('PGlite test databases from the shared image', () => {
  it('start migrated and apart: one database written to leaves the image, and the next database, as they were', async () => {
    const first = await openTestDatabase()
    const image = await migratedImageBytesForTest()
    const before = createHash('sha256').update(new Uint8Array(image)).digest('hex')
    try {
      await first.database.db.execute(sql`create table image_probe (x text)`)
      await first.database.db.execute(
        sql`insert into image_probe select repeat('x', 1000) from generate_series(1, 5000)`,
      )
      await first.database.db.execute(sql`checkpoint`)
    } finally {
      await first.database.close()
    }
    expect(createHash('sha256').update(new Uint8Array(image)).digest('hex')).toBe(before)
    const second = await openTestDatabase()
    try {
      const found = await second.database.db.execute(
        sql`select to_regclass('image_probe') as t, count(*)::int as n from brands`,
      )
      expect((found as unknown as { rows: unknown[] }).rows[0]).toEqual({ t: null, n: 0 })
      // The image made light to open (global-setup.ts): one database, and shared buffers of 16 MB.
      const light = await second.database.db.execute(
        sql`select (select count(*)::int from pg_database) as databases, current_setting('shared_buffers') as buffers`,
      )
      expect((light as unknown as { rows: unknown[] }).rows[0]).toEqual({ databases: 1, buffers: '16MB' })
    } finally {
      await second.database.close()
    }
  })
})
