// A sale at a given stage of its deal, reached through the API the way people reach it: the buyer holds
// the laptop and pays with the test processor's good card, the seller marks it handed over, the buyer
// reports a problem or confirms receipt. Tests that need "a deal at stage X" start here.
import { expect } from 'vitest'
import { HANDOVER_CHECK_KEYS } from '#contract/handover'
import type { AppInstance } from '#server/app'
import type { Db } from '#server/db/client'
import { bearerFor } from './auth-helpers'
import {
  type BookingRow,
  type BrandRow,
  type CreatedProduct,
  createBooking,
  createProduct,
  type UserRow,
} from './factories'

export type DealStage = 'booked' | 'paid' | 'handed_over' | 'disputed' | 'completed'

export type Deal = { product: CreatedProduct; booking: BookingRow; disputeId?: string }

/** Someone on either side of the deal: a factory's user or a signed-up account. */
type Party = Pick<UserRow, 'id' | 'name' | 'email' | 'role'>

export type DealParties = {
  buyer: Party
  seller: Party
  brand: Pick<BrandRow, 'id'>
  /** The listing's price; 649.00 unless given. */
  priceCents?: number
  /** The listing's name; the factory's unless given. */
  name?: string
  handoverNote?: string
  problem?: string
}

/** The test app's app and database (a TestApp fits). */
type Where = { app: AppInstance; db: Db }

async function step(t: Where, method: 'POST' | 'PUT', url: string, who: Party, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: await bearerFor(t.app, who),
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300)
  return res
}

/** A new listing of `seller`'s, booked by `buyer`, moved on to `stage`. */
export async function dealAt(t: Where, stage: DealStage, parties: DealParties): Promise<Deal> {
  const { buyer, seller, brand } = parties
  const product = await createProduct(t.db, {
    seller,
    brand,
    resalePriceCents: parties.priceCents ?? 64_900,
    ...(parties.name ? { name: parties.name } : {}),
  })
  const booking = await createBooking(t.db, { buyer, product })
  const deal: Deal = { product, booking }
  if (stage === 'booked') return deal
  await step(t, 'POST', `/api/bookings/${booking.id}/hold`, buyer)
  await step(t, 'POST', '/api/payments/test', buyer, {
    bookingId: booking.id,
    card: { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' },
  })
  if (stage === 'paid') return deal
  await step(t, 'PUT', `/api/bookings/${booking.id}/handed-over`, seller, {
    note: parties.handoverNote ?? 'Met at the Union Station café',
  })
  if (stage === 'handed_over') return deal
  if (stage === 'completed') {
    await step(t, 'PUT', `/api/bookings/${booking.id}/received`, buyer, {
      checklist: Object.fromEntries(HANDOVER_CHECK_KEYS.map((key) => [key, true])),
    })
    return deal
  }
  const res = await step(t, 'POST', `/api/bookings/${booking.id}/problem`, buyer, {
    reason: parties.problem ?? 'The screen has a dead line the listing did not mention.',
  })
  return { ...deal, disputeId: (res.json() as { insertedId: string }).insertedId }
}
