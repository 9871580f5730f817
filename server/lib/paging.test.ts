import { sql } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { limitOffset } from '#server/lib/paging'

const render = (query: ReturnType<typeof sql>) => new PgDialect().sqlToQuery(query)

describe('limitOffset', () => {
  it('writes the limit and offset into the statement, so a prepared read keeps one plan', () => {
    const query = render(limitOffset(sql`select id from products where brand_id = ${'b1'}`, 25, 4776))
    expect(query.sql).toBe('select id from products where brand_id = $1 limit 25 offset 4776')
    expect(query.params).toEqual(['b1'])
    expect(render(limitOffset(sql`select 1`, 25)).sql).toBe('select 1 limit 25')
  })

  it('refuses anything but whole numbers', () => {
    for (const [limit, offset] of [
      [25.5, 0],
      [25, -1],
      [Number.NaN, 0],
      [25, Number.POSITIVE_INFINITY],
    ] as const) {
      expect(() => limitOffset(sql`select 1`, limit, offset)).toThrow(/whole numbers/)
    }
  })
})
