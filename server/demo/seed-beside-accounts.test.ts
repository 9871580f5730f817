import { count } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client'
import { createUser } from '#server/db/factories'
import { bookings, brands, payments, products, users } from '#server/db/schema'
import { MemoryMediaStorage } from '#server/lib/storage'
import { openTestDatabase } from '#server/test/test-app'
import { DEMO_ACCOUNTS } from './accounts'
import { DEMO_BRANDS } from './brands'
import { seedDemoIfEmpty } from './seed'

// An admin made with `npm run admin` before the first start, then the app starts: the database has no
// brands but holds an account. It gets the brands (reference data) and no demo accounts, listings or sales,
// so no account with the public demo password sits beside the real admin.

let database: Database
let drop: () => Promise<void>
const said: { level: 'info' | 'warn'; msg: string }[] = []
const log = {
  info: (msg: string) => void said.push({ level: 'info', msg }),
  warn: (_obj: object, msg: string) => void said.push({ level: 'warn', msg }),
}

beforeAll(async () => {
  ;({ database, drop } = await openTestDatabase())
  await createUser(database.db, { role: 'admin', email: 'owner@shop.example', name: 'The Owner' })
})
afterAll(async () => {
  await database?.close()
  await drop?.()
})

describe('the first start beside a real account', () => {
  it('adds the brands and nothing else, and says why', async () => {
    expect(await seedDemoIfEmpty(database.db, new MemoryMediaStorage(), log)).toBe(true)
    const n = async (
      table: typeof brands | typeof users | typeof products | typeof bookings | typeof payments,
    ) => (await database.db.select({ n: count() }).from(table))[0]?.n
    expect(await n(brands)).toBe(DEMO_BRANDS.length)
    expect(await n(users)).toBe(1)
    expect(await n(products)).toBe(0)
    expect(await n(bookings)).toBe(0)
    expect(await n(payments)).toBe(0)
    const emails = (await database.db.select({ email: users.email }).from(users)).map((u) => u.email)
    for (const demo of DEMO_ACCOUNTS) expect(emails).not.toContain(demo.email)
    expect(said.filter((s) => s.level === 'warn')).toEqual([])
    expect(said.map((s) => s.msg).join('\n')).toMatch(/already holds accounts, so no demo accounts/)
  })
})
