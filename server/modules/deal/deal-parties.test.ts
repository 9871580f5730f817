// The deal's table of moves (./stages.ts) is the one home of who may make each move: every call that moves a deal
// for someone refuses exactly the people the table refuses, with the table's words, while the booking is in a stage
// the move starts from (so only the party check can refuse it). A call that skipped the check would let a wrong
// person through, or answer in other words, and fail here. And no code but the table words a move's refusal.

import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { HANDOVER_CHECK_KEYS } from '#contract/handover'
import { bookings } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import { type BrandRow, createBrand, createUser, type UserRow } from '#server/test/factories'
import { shippedDealAt } from '#server/test/shipped-deals'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { DEAL_MOVES, type DealMove, type DealParty } from './stages'

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let seller: UserRow
let admin: UserRow
let stranger: UserRow

beforeAll(async () => {
  t = await createTestApp({ LIVE_HOLDS_PER_BUYER: '100', TEST_CARRIER_SECONDS: '3600' })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer' })
  seller = await createUser(t.db, { role: 'seller' })
  admin = await createUser(t.db, { role: 'admin' })
  stranger = await createUser(t.db, { role: 'buyer' })
})

afterAll(async () => {
  await t?.close()
})

/** A sale in a stage its move starts from: the booking's id, and a dispute's when it has one. */
type Sale = { bookingId: string; disputeId?: string }

type Call = {
  /** A new sale in a stage the move starts from. */
  sale: () => Promise<Sale>
  method: 'POST' | 'PUT'
  url: (s: Sale) => string
  body?: (s: Sale) => Record<string, unknown>
  /**
   * What a stranger (signed in, no side of the sale, not an admin) gets: 404 where the booking is hidden from them,
   * 403 where the path refuses them in the table's words (paying: "Only the buyer who booked…").
   */
  stranger: 403 | 404
  /** An admin's route: anyone else is turned away by the route's guard (403) before the table is asked. */
  adminRoute?: boolean
}

const CHECKLIST = Object.fromEntries(HANDOVER_CHECK_KEYS.map((key) => [key, true]))
const CARD = { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' }
const REASON = 'The laptop was dropped and its screen broke.'

const at = (stage: 'booked' | 'paid' | 'handed_over' | 'disputed' | 'completed') => async () => {
  const deal = await dealAt(t, stage, { buyer, seller, brand })
  return { bookingId: deal.booking.id, ...(deal.disputeId ? { disputeId: deal.disputeId } : {}) }
}

/**
 * Every call through which a person moves a deal, by its move. Not here: `book_again` (the booking is found by the
 * caller as its buyer, so no one else can reach it), the moves the product makes by itself, and the return's moves
 * (the return's own table and return-moves.test.ts; the deal's move follows it).
 */
const CALLS: Partial<Record<DealMove, Call>> = {
  cancel: {
    sale: at('booked'),
    method: 'PUT',
    url: (s) => `/api/bookings/${s.bookingId}/cancel-booking`,
    stranger: 404,
  },
  pay: {
    sale: at('booked'),
    method: 'POST',
    url: () => '/api/payments/test',
    body: (s) => ({ bookingId: s.bookingId, card: CARD }),
    stranger: 403,
  },
  hand_over: {
    sale: at('paid'),
    method: 'PUT',
    url: (s) => `/api/bookings/${s.bookingId}/handed-over`,
    body: () => ({ note: 'Met at the library' }),
    stranger: 404,
  },
  receive: {
    sale: at('handed_over'),
    method: 'PUT',
    url: (s) => `/api/bookings/${s.bookingId}/received`,
    body: () => ({ checklist: CHECKLIST }),
    stranger: 404,
  },
  report: {
    sale: at('handed_over'),
    method: 'POST',
    url: (s) => `/api/bookings/${s.bookingId}/problem`,
    body: () => ({ reason: 'The keyboard has two dead keys.' }),
    stranger: 404,
  },
  cancel_sale: {
    sale: at('paid'),
    method: 'PUT',
    url: (s) => `/api/bookings/${s.bookingId}/cancel`,
    body: () => ({ reason: REASON }),
    stranger: 404,
  },
  ship: {
    sale: async () => ({
      bookingId: (await shippedDealAt(t, 'paid', { buyer, seller, brand })).booking.id,
    }),
    method: 'POST',
    url: (s) => `/api/bookings/${s.bookingId}/label`,
    stranger: 404,
  },
  release: {
    sale: at('disputed'),
    method: 'PUT',
    url: (s) => `/api/disputes/${s.disputeId}/release`,
    stranger: 403,
    adminRoute: true,
  },
  refund_dispute: {
    sale: at('disputed'),
    method: 'PUT',
    url: (s) => `/api/disputes/${s.disputeId}/refund`,
    body: () => ({ reason: 'The photos show the dead line.' }),
    stranger: 403,
    adminRoute: true,
  },
  refund_completed: {
    sale: at('completed'),
    method: 'POST',
    url: (s) => `/api/bookings/${s.bookingId}/refund`,
    body: () => ({ reason: 'The seller agreed to take it back.' }),
    stranger: 403,
    adminRoute: true,
  },
}

/** Who each person is to every sale here, as the table's parties. */
const PEOPLE: { name: string; who: () => UserRow; parties: DealParty[] }[] = [
  { name: 'buyer', who: () => buyer, parties: ['buyer'] },
  { name: 'seller', who: () => seller, parties: ['seller'] },
  { name: 'admin', who: () => admin, parties: ['admin'] },
  { name: 'stranger', who: () => stranger, parties: [] },
]

async function call(who: UserRow, c: Call, s: Sale) {
  const res = await t.app.inject({
    method: c.method,
    url: c.url(s),
    headers: await bearerFor(t.app, who),
    ...(c.body ? { payload: c.body(s) } : {}),
  })
  return {
    status: res.statusCode,
    message: res.statusCode >= 400 ? ErrorBody.parse(res.json()).error.message : '',
  }
}

async function stageOf(bookingId: string) {
  const [row] = await t.db.select({ stage: bookings.stage }).from(bookings).where(eq(bookings.id, bookingId))
  return row?.stage
}

describe('every deal call asks the deal’s table who may make its move', () => {
  for (const [move, c] of Object.entries(CALLS) as [DealMove, Call][]) {
    it(`${move}: as buyer, seller, admin and a stranger, exactly as the table says`, async () => {
      const m: { by: readonly DealParty[]; refusal: string; from: readonly string[] } = DEAL_MOVES[move]
      const s = await c.sale()
      const before = await stageOf(s.bookingId)
      expect(m.from).toContain(before)
      const allowed = PEOPLE.filter((p) => p.parties.some((party) => m.by.includes(party)))
      const refused = PEOPLE.filter((p) => !allowed.includes(p))
      expect(allowed.length, `${move} is someone's`).toBeGreaterThan(0)
      for (const p of refused) {
        const res = await call(p.who(), c, s)
        if (p.name === 'stranger' && c.stranger === 404) {
          expect(res, `${move} by a stranger`).toEqual({ status: 404, message: 'Booking not found' })
        } else if (c.adminRoute) {
          expect(res.status, `${move} by ${p.name}`).toBe(403)
        } else {
          expect(res, `${move} by ${p.name}`).toEqual({ status: 403, message: m.refusal })
        }
        expect(await stageOf(s.bookingId), `${move} by ${p.name} moved nothing`).toBe(before)
      }
      // Whoever's move it is gets past the check (their call may still want more: a hold, a rate, a fee).
      for (const p of allowed) {
        const res = await call(p.who(), c, s)
        expect([401, 403, 404], `${move} by ${p.name}: ${res.message}`).not.toContain(res.status)
      }
    })
  }

  it('no code but the table words the refusal of a deal move', () => {
    const root = path.resolve(import.meta.dirname, '../..')
    const homes = new Set([
      path.join(root, 'modules/deal/stages.ts'),
      path.join(root, 'modules/deal/return-moves.ts'),
    ])
    const refusals = Object.values(DEAL_MOVES).map((m) => m.refusal)
    const copies: string[] = []
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(file)
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && !homes.has(file)) {
          const text = fs.readFileSync(file, 'utf8')
          for (const refusal of refusals) {
            if (text.includes(refusal)) copies.push(`${path.relative(root, file)}: ${refusal}`)
          }
        }
      }
    }
    walk(path.join(root, 'modules'))
    walk(path.join(root, 'jobs'))
    walk(path.join(root, 'lib'))
    expect(copies).toEqual([])
  })
})
