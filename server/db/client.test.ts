import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '#server/database'
import { pastTheTurns } from '#server/db/client'

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

  it('has at most statementsAtOnce statements outside a transaction in the database at once, the rest in turn', async () => {
    const opened = await openDatabase({ driver: 'postgres', url: url ?? '', max: 6, statementsAtOnce: 2 })
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    const key = Math.floor(Math.random() * 2 ** 30)
    const marker = `m${randomUUID().replace(/-/g, '')}`
    try {
      await admin.query('select pg_advisory_lock($1)', [key])
      // Four statements that wait for the lock once in the database (sent now: a query runs when awaited).
      const sent = [1, 2, 3, 4].map((n) =>
        Promise.resolve(
          opened.db.execute(
            sql`select pg_advisory_xact_lock_shared(${key}), ${n}::int as n, ${marker}::text as marker`,
          ),
        ),
      )
      const inDatabase = async () =>
        (
          await admin.query(
            'select count(*)::int as n from pg_stat_activity where pid <> pg_backend_pid() and query like $1',
            [`%pg_advisory_xact_lock_shared%`],
          )
        ).rows[0].n as number
      const until = Date.now() + 10_000
      while ((await inDatabase()) < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20))
      await new Promise((r) => setTimeout(r, 300))
      expect(await inDatabase()).toBe(2)
      // A transaction takes its own connection: it is not held up behind them.
      const inTransaction = await opened.db.transaction(async (tx) =>
        tx.execute(sql`select ${marker}::text as marker`),
      )
      expect((inTransaction as unknown as { rows: { marker: string }[] }).rows[0]?.marker).toBe(marker)
      // Nor is a read sent past the turns, though two wait their turn before it.
      const past = await pastTheTurns(async () => opened.db.execute(sql`select ${marker}::text as past`))
      expect((past as unknown as { rows: { past: string }[] }).rows[0]?.past).toBe(marker)
      expect(await inDatabase()).toBe(2)
      await admin.query('select pg_advisory_unlock($1)', [key])
      const answered = await Promise.all(sent)
      expect(answered.map((r) => (r as unknown as { rows: { n: number }[] }).rows[0]?.n)).toEqual([
        1, 2, 3, 4,
      ])
    } finally {
      await admin.query('select pg_advisory_unlock_all()')
      await admin.end()
      await opened.close()
    }
  })

  it('passes the turn on when a statement fails', async () => {
    const opened = await openDatabase({ driver: 'postgres', url: url ?? '', max: 2, statementsAtOnce: 1 })
    try {
      await expect(Promise.resolve(opened.db.execute(sql`select 1 / 0`))).rejects.toThrow(
        /Failed query: select 1 \/ 0/,
      )
      const after = (await opened.db.execute(sql`select 2::int as n`)) as unknown as { rows: { n: number }[] }
      expect(after.rows[0]?.n).toBe(2)
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
