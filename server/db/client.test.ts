import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { openDatabase } from './client'

const url = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined

describe.skipIf(!url)('openDatabase on PostgreSQL', () => {
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
