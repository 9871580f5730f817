import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '#server/database'

const url = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined

describe.skipIf(!url)('openDatabase on PostgreSQL', () => {
  it('prepares reads once per connection, and leaves writes unprepared', async () => {
    const opened = await openDatabase({ driver: 'postgres', url: url ?? '', max: 1 })
    try {
      const marker = `m${randomUUID().replace(/-/g, '')}`
      const read = () => opened.db.execute(sql`select ${marker}::text as ${sql.raw(marker)}`)
      const first = (await read()) as unknown as { rows: Record<string, string>[] }
      await read()
      expect(first.rows[0]?.[marker]).toBe(marker)
      await opened.db.execute(sql`create temporary table ${sql.raw(marker)} (n int)`)
      await opened.db.execute(sql`insert into ${sql.raw(marker)} values (${1})`)
      // One connection: the statements this session prepared are its own.
      const prepared = (await opened.db.execute(
        sql`select statement from pg_prepared_statements`,
      )) as unknown as { rows: { statement: string }[] }
      const mine = prepared.rows.map((r) => r.statement).filter((s) => s.includes(marker))
      expect(mine).toHaveLength(1)
      expect(mine[0]).toMatch(/^select /)
    } finally {
      await opened.close()
    }
  })

  it('compiles no statement (JIT off on every connection of the pool)', async () => {
    const opened = await openDatabase({ driver: 'postgres', url: url ?? '', max: 2 })
    try {
      const shown = await Promise.all(
        [1, 2].map(
          async () =>
            ((await opened.db.execute(sql`show jit`)) as unknown as { rows: { jit: string }[] }).rows[0]?.jit,
        ),
      )
      expect(shown).toEqual(['off', 'off'])
    } finally {
      await opened.close()
    }
  })

  it('lets several instances start at once on an empty database: one migrates, the others wait', async () => {
    const name = `lm_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`create database ${name}`)
    try {
      const dbUrl = new URL(url ?? '')
      dbUrl.pathname = `/${name}`
      const opened = await Promise.all(
        [1, 2, 3, 4].map(() => openDatabase({ driver: 'postgres', url: dbUrl.toString(), max: 2 })),
      )
      expect(await Promise.all(opened.map((d) => d.ping()))).toEqual([true, true, true, true])
      await Promise.all(opened.map((d) => d.close()))
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    }
  })
})
