import { HANDOVER_CHECK_KEYS, type ReceivedBody } from '#contract/handover'
// The ledger under random sequences of everything that moves a sale's money: sales (and declined cards), met or
// shipped (price + shipping), shipping labels bought, shipped sales cancelled for shipping late, handovers, the buyer's confirmation, completion by time, disputes refunded or released, refunds after
// completion, returns (accepted or refused, a shipped one's label paid by the seller, refunded once back), payouts
// that arrive or fail, and crashes (the step's transaction rolled back after the work).
// After every step: each ledger transaction sums to zero, all entries sum to zero, every balance equals what
// the sequence implies, and the money taken from buyers equals the succeeded payments.
//
// LEDGER_PROPERTY_RUNS sets the number of sequences (default 40, so the suite stays quick); the figures in
// docs/decisions/0035 come from runs of 2,000 on PGlite and on PostgreSQL.

import { eq, sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FeeRule, feeCents } from '#contract/fees'
import type { Db } from '#server/db/client'
import { bookings, payments, productHolds, returns } from '#server/db/schema'
import type { SessionUser } from '#server/lib/session'
import { choosePaymentProvider } from '#server/modules/payments'
import {
  createBooking,
  createBrand,
  createParcel,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import {
  completeOverdueSales,
  confirmReceived,
  markHandedOver,
  reportProblem,
} from '../bookings/deal.service'
import { refundCompletedSale } from '../deal/refund'
import { moveDeal } from '../deal/stages'
import { cancelLateShipments } from '../delivery/ship-late'
import { refundDispute, releaseDispute } from '../disputes/disputes.service'
import { payWithTestCard } from '../payments/payments.service'
import { setUpTestPayoutAccount } from '../payouts/payout-accounts'
import { payOutSeller, settleTestPayout } from '../payouts/payouts.service'
import { buyReturnLabel } from '../returns/buy-return-label'
import { acceptReturn, answerReturnBack, decideReturn, returnDeliveredBack } from '../returns/returns.service'
import { returnsDeps } from '../returns/returns-deps'
import { ledgerIntegrity, rowsOf, sellerBalances, totalsByKind } from './ledger'

/** The handover checklist, every item ticked, as "Received, as described" needs it. */
const ALL_TICKED = {
  checklist: Object.fromEntries(HANDOVER_CHECK_KEYS.map((key) => [key, true])) as ReceivedBody['checklist'],
}

const RUNS = Number(process.env.LEDGER_PROPERTY_RUNS ?? 40)

let t: TestApp
let brandId: string
let admin: SessionUser

beforeAll(async () => {
  t = await createTestApp()
  brandId = (await createBrand(t.db)).id
  admin = asSession(await createUser(t.db, { role: 'admin' }))
})

afterAll(async () => {
  await t?.close()
})

function asSession(u: UserRow): SessionUser {
  return { id: u.id, name: u.name, email: u.email, role: u.role, isVerified: false }
}

type Stage = 'paid' | 'shipped' | 'handed_over' | 'returning' | 'completed' | 'disputed' | 'refunded'
type Sale = {
  bookingId: string
  seller: number
  price: number
  /** What the buyer paid for shipping (0: met in person), and whether its label was bought. */
  shipping: number
  labelled: boolean
  fee: number
  stage: Stage
  disputeId?: string
  /** Its return, if the buyer sent it back: where the return is, and what its label cost the seller. */
  ret?: { id: string; status: 'requested' | 'accepted' | 'label_bought' | 'closed'; label: number }
}
type Balances = { held: number; available: number; on_its_way: number; paid_out: number }

type Op =
  | { t: 'sell'; seller: number; price: number; declined: boolean; shipping: number }
  | {
      t:
        | 'handover'
        | 'confirm'
        | 'auto'
        | 'dispute'
        | 'refund_dispute'
        | 'release'
        | 'late_refund'
        | 'label'
        | 'ship_late'
        | 'return'
        | 'accept_return'
        | 'refuse_return'
        | 'return_label'
        | 'return_back'
      i: number
    }
  | { t: 'bank'; seller: number; fails: boolean }
  | { t: 'payout'; seller: number }
  | { t: 'land'; i: number }
  /** The sale's next natural step (handover; confirmation or completion by time; a dispute's outcome). */
  | { t: 'advance'; i: number }

const op: fc.Arbitrary<Op & { crash: boolean }> = fc
  .oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        t: fc.constant('sell' as const),
        seller: fc.integer({ min: 0, max: 1 }),
        price: fc.oneof(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 501, max: 900_000 })),
        declined: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
        // Half the sales are shipped, at a carrier's rate.
        shipping: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 9_000 })),
      }),
    },
    {
      weight: 12,
      arbitrary: fc.record({
        // Weighted so that many sales go the whole way: handed over, completed, paid out, refunded late.
        t: fc.oneof(
          { weight: 3, arbitrary: fc.constant('handover' as const) },
          { weight: 3, arbitrary: fc.constant('confirm' as const) },
          { weight: 1, arbitrary: fc.constant('auto' as const) },
          { weight: 1, arbitrary: fc.constant('dispute' as const) },
          { weight: 1, arbitrary: fc.constant('refund_dispute' as const) },
          { weight: 1, arbitrary: fc.constant('release' as const) },
          { weight: 2, arbitrary: fc.constant('late_refund' as const) },
          { weight: 2, arbitrary: fc.constant('label' as const) },
          { weight: 1, arbitrary: fc.constant('ship_late' as const) },
          { weight: 2, arbitrary: fc.constant('return' as const) },
          { weight: 1, arbitrary: fc.constant('accept_return' as const) },
          { weight: 1, arbitrary: fc.constant('refuse_return' as const) },
          { weight: 1, arbitrary: fc.constant('return_label' as const) },
          { weight: 1, arbitrary: fc.constant('return_back' as const) },
        ),
        i: fc.nat(20),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        t: fc.constant('bank' as const),
        seller: fc.integer({ min: 0, max: 1 }),
        fails: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
      }),
    },
    {
      weight: 5,
      arbitrary: fc.record({ t: fc.constant('payout' as const), seller: fc.integer({ min: 0, max: 1 }) }),
    },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('land' as const), i: fc.nat(20) }) },
    { weight: 16, arbitrary: fc.record({ t: fc.constant('advance' as const), i: fc.nat(20) }) },
  )
  .chain((o) => fc.integer({ min: 0, max: 9 }).map((n) => ({ ...o, crash: n === 0 })))

const feeRule: fc.Arbitrary<FeeRule> = fc.record({
  basisPoints: fc.oneof(fc.constant(500), fc.integer({ min: 0, max: 3000 })),
  minCents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 700 })),
})

class Crash extends Error {}

/** Runs a step; with `crash`, in a transaction that rolls back after the step's own work is done. */
async function step(
  crash: boolean,
  work: (db: Db) => Promise<unknown>,
): Promise<'done' | 'refused' | 'crashed'> {
  try {
    if (!crash) {
      await work(t.db)
      return 'done'
    }
    await t.db.transaction(async (tx) => {
      await work(tx)
      throw new Crash()
    })
    return 'done'
  } catch (err) {
    if (err instanceof Crash) return 'crashed'
    if (err && typeof err === 'object' && 'code' in err && (err as { code: string }).code === 'CONFLICT')
      return 'refused'
    throw err
  }
}

const stats = {
  sequences: 0,
  steps: 0,
  crashed: 0,
  refused: 0,
  negativeBalances: 0,
  payoutsMade: 0,
  payoutsFailed: 0,
  byOp: {} as Record<string, number>,
  /** Steps that changed something (not refused, not crashed, not a no-op). */
  done: {} as Record<string, number>,
  refusedByOp: {} as Record<string, number>,
}

describe('the ledger under random sequences', () => {
  it(
    'keeps every transaction at zero and every balance equal to what the sequence implies',
    async () => {
      // Totals of every sequence so far (they share the database).
      const world = { buyers: 0, held_fees: 0, fees: 0, shipping: 0, carriers: 0 }
      const { mail } = t.app.ctx
      const provider = choosePaymentProvider(t.app.ctx.config, mail)

      await fc.assert(
        fc.asyncProperty(
          feeRule,
          // Each seller's bank account at the start: none, one that pays, one that fails at payout.
          fc.tuple(
            fc.constantFrom('none', 'pays', 'pays', 'fails'),
            fc.constantFrom('none', 'pays', 'fails'),
          ),
          fc.array(op, { minLength: 12, maxLength: 40 }),
          async (fee, startBanks, ops) => {
            stats.sequences++
            const sellers = [
              asSession(await createUser(t.db, { role: 'seller' })),
              asSession(await createUser(t.db, { role: 'seller' })),
            ]
            const buyer = asSession(await createUser(t.db, { role: 'buyer' }))
            const expected: Balances[] = sellers.map(() => ({
              held: 0,
              available: 0,
              on_its_way: 0,
              paid_out: 0,
            }))
            const sales: Sale[] = []
            // Each seller's payout account (none until a 'bank' step), and the payouts made.
            const banks: ({ enabled: boolean; fails: boolean } | null)[] = [null, null]
            const made: { id: string; seller: number; amount: number; fails: boolean; landed: boolean }[] = []
            const minimum = t.app.ctx.config.payouts.minimumCents
            for (const [k, start] of startBanks.entries()) {
              if (start === 'none') continue
              const details = {
                account_holder: 'Property Seller',
                routing_number: '110000000',
                account_number: start === 'fails' ? '000111111116' : '000123456789',
              }
              await setUpTestPayoutAccount(t.db, sellers[k] as SessionUser, details, payoutChange())
              banks[k] = { enabled: true, fails: start === 'fails' }
            }

            for (const o of ops) {
              stats.steps++
              stats.byOp[o.t] = (stats.byOp[o.t] ?? 0) + 1
              let outcome: 'done' | 'refused' | 'crashed' | 'skipped' = 'skipped'
              // What the step did (an 'advance' counts as the step it took).
              let acted: string = o.t
              if (o.t === 'sell') {
                const seller = sellers[o.seller] as SessionUser
                const product = await createProduct(t.db, {
                  seller: { id: seller.id },
                  brand: { id: brandId },
                  resalePriceCents: o.price,
                })
                const booking = await createBooking(t.db, {
                  buyer: { id: buyer.id, name: buyer.name, email: buyer.email },
                  product,
                  ...(o.shipping > 0 ? { deliveryMethod: 'ship' as const, shippingCents: o.shipping } : {}),
                })
                await t.db.insert(productHolds).values({
                  productId: product.id,
                  bookingId: booking.id,
                  holdUntil: new Date(Date.now() + 600_000),
                })
                const card = o.declined ? '4000000000000002' : '4242424242424242'
                try {
                  outcome = await step(o.crash, (db) =>
                    payWithTestCard(db, buyer, booking.id, card, mail, fee),
                  )
                } catch (err) {
                  if (!o.declined) throw err
                  outcome = 'refused'
                }
                if (outcome === 'done') {
                  expect(o.declined).toBe(false)
                  const f = feeCents(o.price, fee)
                  sales.push({
                    bookingId: booking.id,
                    seller: o.seller,
                    price: o.price,
                    shipping: o.shipping,
                    labelled: false,
                    fee: f,
                    stage: 'paid',
                  })
                  const b = expected[o.seller] as Balances
                  b.held += o.price - f
                  world.held_fees += f
                  world.buyers -= o.price + o.shipping
                  world.shipping += o.shipping
                }
              } else if (o.t === 'bank') {
                const seller = sellers[o.seller] as SessionUser
                const details = {
                  account_holder: 'Property Seller',
                  routing_number: '110000000',
                  account_number: o.fails ? '000111111116' : '000123456789',
                }
                outcome = await step(o.crash, (db) =>
                  setUpTestPayoutAccount(db, seller, details, payoutChange()),
                )
                if (outcome === 'done') banks[o.seller] = { enabled: true, fails: o.fails }
              } else if (o.t === 'payout') {
                const seller = sellers[o.seller] as SessionUser
                const b = expected[o.seller] as Balances
                let result: { payoutId: string; amountCents: number } | null = null
                outcome = await step(o.crash, async (db) => {
                  result = await payOutSeller({ ...t.app.ctx, db }, seller.id)
                })
                if (outcome === 'done') {
                  const bank = banks[o.seller]
                  const due = bank?.enabled && b.available >= minimum
                  expect(result === null).toBe(!due)
                  if (result) {
                    const r = result as { payoutId: string; amountCents: number }
                    expect(r.amountCents).toBe(b.available)
                    b.available -= r.amountCents
                    b.on_its_way += r.amountCents
                    stats.payoutsMade++
                    made.push({
                      id: r.payoutId,
                      seller: o.seller,
                      amount: r.amountCents,
                      fails: !!bank?.fails,
                      landed: false,
                    })
                  }
                }
              } else if (o.t === 'land') {
                const p = made[o.i < 10 ? made.length - 1 : o.i % Math.max(1, made.length)]
                if (p) {
                  let landed = ''
                  outcome = await step(o.crash, async (db) => {
                    landed = await settleTestPayout({ db, mail }, p.id, p.fails)
                  })
                  if (outcome === 'done') {
                    expect(landed).toBe(p.landed ? 'unchanged' : p.fails ? 'failed' : 'paid')
                    if (!p.landed) {
                      const b = expected[p.seller] as Balances
                      b.on_its_way -= p.amount
                      if (p.fails) {
                        stats.payoutsFailed++
                        b.available += p.amount
                        banks[p.seller] = { enabled: false, fails: true }
                      } else b.paid_out += p.amount
                      p.landed = true
                    }
                  }
                }
              } else if (sales.length > 0) {
                // Mostly the latest sale, so sequences take sales through their whole life.
                const sale = sales[o.i < 10 ? sales.length - 1 : o.i % sales.length] as Sale
                const next: Record<
                  Stage,
                  Exclude<Op['t'], 'sell' | 'bank' | 'payout' | 'land' | 'advance'> | null
                > = {
                  paid: sale.shipping > 0 ? (o.i % 4 === 3 ? 'ship_late' : 'label') : 'handover',
                  // The carrier's delivery hands it over (server/modules/shipping); here the stage is set as it
                  // leaves it, through the 'handover' step below.
                  shipped: 'handover',
                  // Shipped sales are returned more often, so sequences reach the return label and the refund.
                  handed_over:
                    o.i % 3 === 0 ? 'auto' : o.i % 3 === 1 || sale.shipping > 0 ? 'return' : 'confirm',
                  returning:
                    sale.ret?.status === 'requested'
                      ? o.i % 4 === 0
                        ? 'refuse_return'
                        : 'accept_return'
                      : sale.ret?.status === 'accepted' && sale.shipping > 0
                        ? 'return_label'
                        : 'return_back',
                  disputed: o.i % 2 === 0 ? 'release' : 'refund_dispute',
                  // A completed sale is left alone mostly, so its money reaches payouts.
                  completed: o.i % 6 === 5 ? 'late_refund' : null,
                  refunded: null,
                }
                const kind = o.t === 'advance' ? next[sale.stage] : o.t
                acted = kind ?? o.t
                const seller = sellers[sale.seller] as SessionUser
                const b = expected[sale.seller] as Balances
                const net = sale.price - sale.fee
                const complete = () => {
                  b.held -= net
                  b.available += net
                  world.held_fees -= sale.fee
                  world.fees += sale.fee
                  sale.stage = 'completed'
                }
                if (kind)
                  switch (kind) {
                    case 'label':
                      // Only a shipped sale has a label (the label's service checks it before the move).
                      if (sale.shipping === 0) break
                      outcome = await step(o.crash, (db) =>
                        db.transaction((tx) =>
                          moveDeal(tx, sale.bookingId, 'ship', 'seller', { actorId: seller.id }),
                        ),
                      )
                      if (outcome === 'done') {
                        expect(sale.stage).toBe('paid')
                        expect(sale.shipping).toBeGreaterThan(0)
                        sale.stage = 'shipped'
                        sale.labelled = true
                        world.shipping -= sale.shipping
                        world.carriers += sale.shipping
                      }
                      break
                    case 'ship_late': {
                      if (sale.shipping === 0) break
                      let cancelled: string[] = []
                      outcome = await step(o.crash, async (db) => {
                        await db
                          .update(bookings)
                          .set({ shipBy: sql`now() - interval '1 minute'` })
                          .where(eq(bookings.id, sale.bookingId))
                        cancelled = await cancelLateShipments({ ...t.app.ctx, db })
                      })
                      if (outcome === 'done') {
                        expect(cancelled.includes(sale.bookingId)).toBe(sale.stage === 'paid')
                        if (sale.stage === 'paid') {
                          b.held -= net
                          world.held_fees -= sale.fee
                          world.buyers += sale.price + sale.shipping
                          world.shipping -= sale.shipping
                          sale.stage = 'refunded'
                        }
                      }
                      break
                    }
                    case 'handover':
                      if (sale.stage === 'shipped') {
                        // Delivered: what the carrier's `deliver` move does to the stage (no money moves).
                        outcome = await step(o.crash, (db) =>
                          db
                            .update(bookings)
                            .set({ stage: 'handed_over', handedOverAt: sql`now()` })
                            .where(eq(bookings.id, sale.bookingId)),
                        )
                        if (outcome === 'done') sale.stage = 'handed_over'
                        break
                      }
                      outcome = await step(o.crash, (db) =>
                        markHandedOver(db, seller, sale.bookingId, {}, mail, 7),
                      )
                      if (outcome === 'done') {
                        expect(sale.stage).toBe('paid')
                        sale.stage = 'handed_over'
                      }
                      break
                    case 'confirm':
                      outcome = await step(o.crash, (db) =>
                        confirmReceived(db, buyer, sale.bookingId, mail, fee, ALL_TICKED),
                      )
                      if (outcome === 'done') {
                        expect(sale.stage).toBe('handed_over')
                        complete()
                      }
                      break
                    case 'auto': {
                      let completedIds: string[] = []
                      outcome = await step(o.crash, async (db) => {
                        await db
                          .update(bookings)
                          .set({ handedOverAt: sql`now() - interval '8 days'` })
                          .where(eq(bookings.id, sale.bookingId))
                        completedIds = await completeOverdueSales(db, 7, mail, fee)
                      })
                      if (outcome === 'done') {
                        expect(completedIds).toEqual(sale.stage === 'handed_over' ? [sale.bookingId] : [])
                        if (sale.stage === 'handed_over') complete()
                      }
                      break
                    }
                    case 'dispute': {
                      let id = ''
                      outcome = await step(o.crash, async (db) => {
                        id = await reportProblem(
                          db,
                          buyer,
                          sale.bookingId,
                          { reason: 'It does not turn on at all' },
                          mail,
                        )
                      })
                      if (outcome === 'done') {
                        expect(['paid', 'handed_over']).toContain(sale.stage)
                        sale.stage = 'disputed'
                        sale.disputeId = id
                      }
                      break
                    }
                    case 'refund_dispute':
                    case 'release': {
                      if (!sale.disputeId) break
                      const id = sale.disputeId
                      outcome = await step(o.crash, (db) =>
                        kind === 'release'
                          ? releaseDispute(db, admin, id, mail, fee)
                          : refundDispute(db, provider, admin, id, mail, fee, 'Not as described'),
                      )
                      if (outcome === 'done') {
                        expect(sale.stage).toBe('disputed')
                        if (kind === 'release') complete()
                        else {
                          b.held -= net
                          world.held_fees -= sale.fee
                          world.buyers += sale.price + sale.shipping
                          world.shipping -= sale.shipping
                          sale.stage = 'refunded'
                        }
                      }
                      break
                    }
                    case 'return': {
                      // Opened as the buyer's return opens it (the service's window and photos are tested in
                      // server/modules/returns): the deal to returning, the return requested. No money moves.
                      if (sale.stage !== 'handed_over' || sale.ret) break
                      let id = ''
                      outcome = await step(o.crash, (db) =>
                        db.transaction(async (tx) => {
                          await moveDeal(tx, sale.bookingId, 'open_return', 'buyer', { actorId: buyer.id })
                          const [row] = await tx
                            .insert(returns)
                            .values({
                              bookingId: sale.bookingId,
                              openedBy: buyer.id,
                              method: sale.shipping > 0 ? 'ship' : 'meet',
                              reason: 'The battery lasts minutes, not hours.',
                              failedCheck: 'battery_as_described',
                            })
                            .returning({ id: returns.id })
                          id = row?.id ?? ''
                        }),
                      )
                      if (outcome === 'done') {
                        sale.stage = 'returning'
                        sale.ret = { id, status: 'requested', label: 0 }
                      }
                      break
                    }
                    case 'accept_return':
                    case 'refuse_return': {
                      const ret = sale.ret
                      if (!ret) break
                      const deps = { ...returnsDeps(t.app.ctx), provider, fee }
                      outcome = await step(o.crash, (db) =>
                        kind === 'accept_return'
                          ? acceptReturn(db, deps, seller, sale.bookingId)
                          : db.transaction((tx) =>
                              decideReturn(tx, deps, admin, ret.id, {
                                decision: 'refuse',
                                reason: 'The battery report shows it as described.',
                              }),
                            ),
                      )
                      if (outcome === 'done') {
                        expect(ret.status).toBe('requested')
                        if (kind === 'accept_return') ret.status = 'accepted'
                        else {
                          ret.status = 'closed'
                          complete()
                        }
                      }
                      break
                    }
                    case 'return_label': {
                      // The carrier sold the label (recorded by the carrier layer, whatever happens to our step);
                      // the job's own transaction posts its cost, once, however often it runs.
                      const ret = sale.ret
                      // A label exists only for a return that was accepted (or is bought already).
                      if (!ret || sale.shipping === 0 || (ret.status !== 'accepted' && ret.label === 0)) break
                      const cost = 300 + (sale.price % 1_700)
                      await createParcel(t.db, {
                        bookingId: sale.bookingId,
                        returnId: ret.id,
                        costCents: cost,
                      })
                      const deps = { ...returnsDeps(t.app.ctx), provider, fee }
                      let answer = ''
                      outcome = await step(o.crash, async (db) => {
                        answer = await buyReturnLabel({ ...t.app.ctx, db }, deps, ret.id)
                      })
                      if (outcome === 'done') {
                        expect(answer).toBe(ret.status === 'accepted' ? 'bought' : 'already')
                        if (ret.status === 'accepted') {
                          ret.status = 'label_bought'
                          ret.label = cost
                          b.available -= cost
                          world.carriers += cost
                        }
                      }
                      break
                    }
                    case 'return_back': {
                      // Back with the seller (a shipped one delivered by the carrier first), as sent: refunded.
                      const ret = sale.ret
                      if (!ret) break
                      const deps = { ...returnsDeps(t.app.ctx), provider, fee }
                      outcome = await step(o.crash, (db) =>
                        db.transaction(async (tx) => {
                          if (sale.shipping > 0) await returnDeliveredBack(tx, deps, ret.id)
                          await answerReturnBack(tx, deps, seller, sale.bookingId, { as_sent: true })
                        }),
                      )
                      if (outcome === 'done') {
                        expect(ret.status).toBe(sale.shipping > 0 ? 'label_bought' : 'accepted')
                        ret.status = 'closed'
                        b.held -= net
                        world.held_fees -= sale.fee
                        world.buyers += sale.price + sale.shipping
                        world.shipping -= sale.shipping
                        sale.stage = 'refunded'
                      }
                      break
                    }
                    case 'late_refund':
                      outcome = await step(o.crash, (db) =>
                        refundCompletedSale(db, provider.refund, admin, sale.bookingId, fee),
                      )
                      if (outcome === 'done') {
                        expect(sale.stage).toBe('completed')
                        b.available -= net
                        world.fees -= sale.fee
                        world.buyers += sale.price + sale.shipping
                        world.shipping -= sale.shipping
                        sale.stage = 'refunded'
                      }
                      break
                  }
              }
              if (outcome === 'crashed') stats.crashed++
              if (outcome === 'refused') stats.refused++
              if (outcome === 'refused') stats.refusedByOp[o.t] = (stats.refusedByOp[o.t] ?? 0) + 1
              if (outcome === 'done') stats.done[acted] = (stats.done[acted] ?? 0) + 1
              if (expected.some((b) => b.available < 0)) stats.negativeBalances++

              // After every step: the ledger's own check, this sequence's sellers, and the whole world.
              expect(await ledgerIntegrity(t.db)).toEqual({ unbalancedTransactions: 0, total: 0 })
              for (const [k, s] of sellers.entries()) {
                expect(await sellerBalances(t.db, s.id)).toEqual(expected[k])
              }
              const totals = await totalsByKind(t.db)
              expect({
                buyers: totals.buyers,
                held_fees: totals.held_fees,
                fees: totals.fees,
                shipping: totals.shipping,
                carriers: totals.carriers,
              }).toEqual(world)
              const [paid] = await rowsOf<{ total: string | number }>(
                t.db,
                sql`select coalesce(sum(amount_cents), 0)::bigint as total from ${payments} where status = 'succeeded'`,
              )
              expect(0 - totals.buyers).toBe(Number(paid?.total))
            }
          },
        ),
        { numRuns: RUNS, endOnFailure: true },
      )
      console.info(`ledger property: ${JSON.stringify(stats)}`)
    },
    60_000 + RUNS * 3000,
  )
})

/** What a save of test bank details needs: the app's mail and config, with no wait after a change (tested in payouts). */
function payoutChange() {
  return {
    mail: t.app.ctx.mail,
    config: { ...t.app.ctx.config, payouts: { ...t.app.ctx.config.payouts, accountHoldHours: 0 } },
  }
}
