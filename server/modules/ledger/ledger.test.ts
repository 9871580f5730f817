// The ledger's own guarantees, in the database itself: a transaction that does not sum to zero is refused at
// commit, entries and transactions cannot be changed or deleted, and each kind of movement is posted once per
// sale. And the fee: a percentage rounded half up, a minimum, never more than the price.

import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feeCents, sellerNetCents } from '#contract/fees'
import { ledgerEntries, ledgerTransactions } from '#server/db/schema'
import {
  createBooking,
  createBrand,
  createPayment,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { ledgerIntegrity, postTransaction, sellerBalances, totalsByKind } from './ledger'
import { postSaleMoney } from './sales'

let t: TestApp
let seller: UserRow
let buyer: UserRow

beforeAll(async () => {
  t = await createTestApp()
  seller = await createUser(t.db, { role: 'seller' })
  buyer = await createUser(t.db, { role: 'buyer' })
})

afterAll(async () => {
  await t?.close()
})

const FIVE_PERCENT = { basisPoints: 500, minCents: 0 }

describe('the fee', () => {
  it('is the percentage of the price, rounded half up to the cent', () => {
    expect(feeCents(64_900, FIVE_PERCENT)).toBe(3245)
    expect(feeCents(10, FIVE_PERCENT)).toBe(1) // 0.5 rounds up
    expect(feeCents(9, FIVE_PERCENT)).toBe(0) // 0.45 rounds down
    expect(feeCents(12_345, { basisPoints: 250, minCents: 0 })).toBe(309) // 2.5%: 308.625
    expect(sellerNetCents(64_900, FIVE_PERCENT)).toBe(61_655)
  })

  it('is at least the minimum and never more than the price', () => {
    expect(feeCents(1000, { basisPoints: 500, minCents: 99 })).toBe(99)
    expect(feeCents(50, { basisPoints: 500, minCents: 99 })).toBe(50)
    expect(feeCents(100_000, { basisPoints: 500, minCents: 99 })).toBe(5000)
    expect(feeCents(100_000, { basisPoints: 0, minCents: 0 })).toBe(0)
  })
})

async function paidSale(priceCents: number, stage: 'paid' | 'completed' = 'paid') {
  const brand = await createBrand(t.db)
  const product = await createProduct(t.db, { seller, brand, resalePriceCents: priceCents, isSold: true })
  const booking = await createBooking(t.db, { buyer, product, isPaid: true, stage })
  await createPayment(t.db, { booking })
  return booking
}

describe('the ledger in the database', () => {
  it('refuses at commit a transaction whose entries do not sum to zero, and keeps nothing of it', async () => {
    const booking = await paidSale(1000)
    await expect(
      t.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(ledgerTransactions)
          .values({ kind: 'charge', sellerId: seller.id, bookingId: booking.id })
          .returning()
        await tx.execute(
          sql`insert into ledger_accounts (id, kind) values ('buyers', 'buyers') on conflict do nothing`,
        )
        await tx
          .insert(ledgerEntries)
          .values({ transactionId: row?.id as number, accountId: 'buyers', amountCents: -1000 })
      }),
    ).rejects.toThrow()
    expect(await t.db.select().from(ledgerTransactions).where(sql`booking_id = ${booking.id}`)).toEqual([])
  })

  it('refuses to change or delete what is written', async () => {
    const booking = await paidSale(2000)
    await postSaleMoney(t.db, [booking.id], FIVE_PERCENT)
    await expect(
      t.db.execute(sql`update ledger_entries set amount_cents = amount_cents * 2`),
    ).rejects.toThrow()
    await expect(t.db.execute(sql`delete from ledger_entries`)).rejects.toThrow()
    await expect(t.db.execute(sql`delete from ledger_transactions`)).rejects.toThrow()
    expect(await ledgerIntegrity(t.db)).toEqual({ unbalancedTransactions: 0, total: 0 })
  })

  it('refuses in the app a transaction that does not sum to zero, before writing it', async () => {
    const booking = await paidSale(3000)
    await expect(
      postTransaction(t.db, { kind: 'charge', sellerId: seller.id, bookingId: booking.id }, [
        { account: { kind: 'buyers' }, amountCents: -3000 },
        { account: { kind: 'held', sellerId: seller.id }, amountCents: 2999 },
      ]),
    ).rejects.toThrow(/sums to -1/)
  })

  it("posts a sale's charge, fee and completion once however often it is asked", async () => {
    const before = await sellerBalances(t.db, seller.id)
    const booking = await paidSale(64_900, 'completed')
    await postSaleMoney(t.db, [booking.id], FIVE_PERCENT)
    await postSaleMoney(t.db, [booking.id], FIVE_PERCENT)
    // A fee rule changed since does not reach a sale already charged.
    await postSaleMoney(t.db, [booking.id], { basisPoints: 1000, minCents: 0 })
    const after = await sellerBalances(t.db, seller.id)
    expect(after.available - before.available).toBe(61_655)
    expect(after.held - before.held).toBe(0)
    const kinds = await t.db
      .select({ kind: ledgerTransactions.kind })
      .from(ledgerTransactions)
      .where(sql`booking_id = ${booking.id}`)
    expect(kinds.map((k) => k.kind).sort()).toEqual(['charge', 'complete'])
    const totals = await totalsByKind(t.db)
    expect(totals.fees).toBeGreaterThanOrEqual(3245)
  })
})
