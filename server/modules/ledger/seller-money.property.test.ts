// Every page that shows a seller's money says what the ledger says, under random sequences of sales: sold at
// the asking price or by an offer accepted below it, handed over, confirmed, disputed and refunded or released,
// cancelled by the seller, refunded by an admin after completion, bank accounts that pay or fail, payouts,
// landings. After every step that changed something, the figures each page's API answers (the seller's
// dashboard, its money and the overview's Revenue, Earnings, its CSV, My Product, the admins' Finance) are
// compared with the ledger's own balances (`sellerBalances`, `totalsByKind`) and with what the sequence
// implies for each sale: the price agreed (not the asking price), the fee, and what the seller receives
// (nothing once refunded).
//
// Everything goes through the app's routes, as the pages do, except the payout job and a payout's landing
// (the payouts module's own functions, as its jobs call them). Mismatches are gathered per step, so a failure
// names every page that disagrees.
//
// SELLER_MONEY_RUNS sets the number of sequences (default 20, so the suite stays quick).

import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feeCents } from '#contract/fees'
import { HANDOVER_CHECK_KEYS } from '#contract/handover'
import { formatMoney } from '#contract/money'
import { earningsCsv, MONEY_WORDS, WHERE_WORDS } from '#contract/seller-money'
import { bearerFor } from '#server/test/auth-helpers'
import {
  type BrandRow,
  createBooking,
  createBrand,
  createProduct,
  createUser,
  type UserRow,
} from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { payOutSeller, settleTestPayout } from '../payouts/payouts.service'
import { sellerBalances, totalsByKind } from './ledger'

const RUNS = Number(process.env.SELLER_MONEY_RUNS ?? 20)

const CARD = { number: '4242 4242 4242 4242', expiry: '12 / 40', cvc: '123' }
const ALL_TICKED = { checklist: Object.fromEntries(HANDOVER_CHECK_KEYS.map((key) => [key, true])) }

let t: TestApp
let brand: BrandRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({
    // Sellers here may save their bank details again: no wait after a change (tested in payouts).
    PAYOUT_ACCOUNT_HOLD_HOURS: '0',
    PLATFORM_FEE_PERCENT: '5',
    // A minimum fee, so small sales pay more than 5%.
    PLATFORM_FEE_MIN_CENTS: '40',
    PAYOUT_MINIMUM_CENTS: '100',
    TEST_PAYOUT_SECONDS: '0',
    LIVE_HOLDS_PER_BUYER: '100',
    LIVE_HOLDS_PER_ADDRESS: '1000',
    HOLDS_PER_LISTING_PER_DAY: '100',
  })
  brand = await createBrand(t.db)
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
})

const tokens = new Map<string, Record<string, string>>()
async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: UserRow, body?: unknown) {
  let headers = tokens.get(who.id)
  if (!headers) {
    headers = await bearerFor(t.app, who, { steppedUp: true })
    tokens.set(who.id, headers)
  }
  return t.app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

type Stage = 'paid' | 'handed_over' | 'disputed' | 'completed' | 'refunded'
type Sale = {
  bookingId: string
  productId: string
  seller: UserRow
  buyer: UserRow
  asking: number
  /** What the buyer paid: the asking price, or the offer's amount. */
  price: number
  fee: number
  stage: Stage
  disputeId?: string
  /** The seller cancelled it: the listing is taken down, off My Product. */
  takenDown?: boolean
}
type Expected = { held: number; available: number; on_its_way: number; paid_out: number; fees: number }

type Op =
  | { t: 'sell'; seller: number; price: number; offerShare: number | null }
  | {
      t:
        | 'handover'
        | 'confirm'
        | 'dispute'
        | 'refund_dispute'
        | 'release'
        | 'cancel'
        | 'late_refund'
        | 'advance'
      i: number
    }
  | { t: 'bank'; seller: number; fails: boolean }
  | { t: 'payout'; seller: number }
  | { t: 'land'; i: number }

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant('sell' as const),
      seller: fc.integer({ min: 0, max: 1 }),
      price: fc.oneof(fc.integer({ min: 100, max: 2000 }), fc.integer({ min: 2001, max: 400_000 })),
      // An offer of 50% to 99% of the asking price, accepted by the seller; or a sale at the asking price.
      offerShare: fc.option(fc.integer({ min: 50, max: 99 }), { freq: 2 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constantFrom(
        'handover' as const,
        'confirm' as const,
        'dispute' as const,
        'refund_dispute' as const,
        'release' as const,
        'cancel' as const,
        'late_refund' as const,
      ),
      i: fc.nat(20),
    }),
  },
  // Most steps move a sale to its next stage, so that sequences reach completion, payouts and late refunds.
  { weight: 18, arbitrary: fc.record({ t: fc.constant('advance' as const), i: fc.nat(20) }) },
  {
    weight: 1,
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
  { weight: 6, arbitrary: fc.record({ t: fc.constant('land' as const), i: fc.nat(20) }) },
)

/** The stages each move starts from, and where it leaves the sale. */
const MOVES: Record<string, { from: Stage[]; to: Stage }> = {
  handover: { from: ['paid'], to: 'handed_over' },
  confirm: { from: ['handed_over'], to: 'completed' },
  dispute: { from: ['paid', 'handed_over'], to: 'disputed' },
  refund_dispute: { from: ['disputed'], to: 'refunded' },
  release: { from: ['disputed'], to: 'completed' },
  cancel: { from: ['paid'], to: 'refunded' },
  late_refund: { from: ['completed'], to: 'refunded' },
}

const stats = {
  sequences: 0,
  steps: 0,
  checked: 0,
  sales: 0,
  offers: 0,
  completed: 0,
  refunds: 0,
  lateRefunds: 0,
  payouts: 0,
  landed: 0,
  failedPayouts: 0,
  negativeBalance: 0,
  /** Moves the app refused (a confirmation of a refunded sale, a cancellation after handover…). */
  refused: 0,
}

/** Every sale of every sequence (they share the database, and Finance lists sales of earlier ones). */
const allSales = new Map<string, Sale>()
/** What every seller of every sequence should have (each checked against the ledger in its own sequence). */
const allExpected: Expected[] = []

describe("a seller's money on every page", () => {
  it(
    'is the ledger’s: the dashboard, Earnings, its CSV, My Product and Finance show the same figures',
    async () => {
      const fee = t.app.ctx.config.payouts.fee
      const { mail } = t.app.ctx

      await fc.assert(
        fc.asyncProperty(
          // Each seller's bank account at the start (none, one that pays, one that fails at payout), so that
          // sequences reach payouts.
          fc.tuple(
            fc.constantFrom('none', 'pays', 'pays', 'fails'),
            fc.constantFrom('none', 'pays', 'fails'),
          ),
          fc.array(op, { minLength: 6, maxLength: 24 }),
          async (startBanks, ops) => {
            stats.sequences++
            const sellers = [
              await createUser(t.db, { role: 'seller' }),
              await createUser(t.db, { role: 'seller' }),
            ]
            const expected: Expected[] = sellers.map(() => ({
              held: 0,
              available: 0,
              on_its_way: 0,
              paid_out: 0,
              fees: 0,
            }))
            allExpected.push(...expected)
            const sales: Sale[] = []
            const banks: ({ enabled: boolean; fails: boolean } | null)[] = [null, null]
            const made: { id: string; seller: number; amount: number; fails: boolean; landed: boolean }[] = []
            for (const [k, start] of startBanks.entries()) {
              if (start !== 'none') await openBank(sellers[k] as UserRow, start === 'fails')
              banks[k] = start === 'none' ? null : { enabled: true, fails: start === 'fails' }
            }

            /** The payout job for one seller; whether it paid. */
            const payout = async (k: number) => {
              const result = await payOutSeller(t.app.ctx, (sellers[k] as UserRow).id)
              if (!result) return false
              const e = expected[k] as Expected
              e.available -= result.amountCents
              e.on_its_way += result.amountCents
              made.push({
                id: result.payoutId,
                seller: k,
                amount: result.amountCents,
                fails: !!banks[k]?.fails,
                landed: false,
              })
              stats.payouts++
              return true
            }
            /** A payout lands (or the bank refuses it): mostly the oldest still on its way, else any. */
            const land = async (i: number) => {
              const p = i < 14 ? made.find((m) => !m.landed) : made[i % Math.max(1, made.length)]
              if (!p || p.landed) return false
              const landed = await settleTestPayout({ db: t.db, mail }, p.id, p.fails)
              expect(landed).toBe(p.fails ? 'failed' : 'paid')
              const e = expected[p.seller] as Expected
              e.on_its_way -= p.amount
              if (p.fails) {
                stats.failedPayouts++
                e.available += p.amount
                banks[p.seller] = { enabled: false, fails: true }
              } else e.paid_out += p.amount
              p.landed = true
              stats.landed++
              return true
            }

            for (const o of ops) {
              stats.steps++
              let changed = false
              if (o.t === 'sell') {
                const seller = sellers[o.seller] as UserRow
                const buyer = await createUser(t.db, { role: 'buyer' })
                const product = await createProduct(t.db, {
                  seller,
                  brand,
                  name: `Laptop ${stats.steps}`,
                  resalePriceCents: o.price,
                })
                let bookingId: string
                let price = o.price
                if (o.offerShare !== null) {
                  price = Math.max(Math.ceil(o.price / 2), Math.floor((o.price * o.offerShare) / 100))
                  if (price >= o.price) price = o.price - 1
                  const offered = await call('POST', `/api/products/${product.id}/offers`, buyer, {
                    amount: price / 100,
                  })
                  expect(offered.statusCode, offered.body).toBe(201)
                  const offerId = (offered.json() as { insertedId: string }).insertedId
                  const accepted = await call('PUT', `/api/offers/${offerId}/accept`, seller)
                  expect(accepted.statusCode, accepted.body).toBe(200)
                  bookingId = (accepted.json() as { bookingId: string }).bookingId
                  stats.offers++
                } else {
                  bookingId = (await createBooking(t.db, { buyer, product })).id
                }
                await call('POST', `/api/bookings/${bookingId}/hold`, buyer)
                const paid = await call('POST', '/api/payments/test', buyer, { bookingId, card: CARD })
                expect(paid.statusCode, paid.body).toBeLessThan(300)
                const sale: Sale = {
                  bookingId,
                  productId: product.id,
                  seller,
                  buyer,
                  asking: o.price,
                  price,
                  fee: feeCents(price, fee),
                  stage: 'paid',
                }
                sales.push(sale)
                allSales.set(bookingId, sale)
                ;(expected[o.seller] as Expected).held += price - sale.fee
                stats.sales++
                changed = true
              } else if (o.t === 'bank') {
                await openBank(sellers[o.seller] as UserRow, o.fails)
                banks[o.seller] = { enabled: true, fails: o.fails }
              } else if (o.t === 'payout') {
                changed = await payout(o.seller)
              } else if (o.t === 'land') {
                changed = await land(o.i)
              } else if (sales.length > 0) {
                // Mostly the latest sale, so sequences take sales through their whole life.
                const sale = sales[o.i < 10 ? sales.length - 1 : o.i % sales.length] as Sale
                const next: Record<Stage, string | null> = {
                  paid: o.i % 7 === 6 ? 'cancel' : o.i % 5 === 4 ? 'dispute' : 'handover',
                  handed_over: o.i % 5 === 4 ? 'dispute' : 'confirm',
                  disputed: o.i % 2 === 0 ? 'release' : 'refund_dispute',
                  // A completed sale's money goes on to a payout and its landing; now and then the sale is refunded.
                  completed: o.i % 6 === 5 ? 'late_refund' : o.i % 2 === 0 ? 'payout' : 'land',
                  refunded: null,
                }
                const kind = o.t === 'advance' ? next[sale.stage] : o.t
                if (kind === 'payout') changed = await payout(sellers.indexOf(sale.seller))
                else if (kind === 'land') changed = await land(o.i)
                else if (kind && (await move(kind, sale))) {
                  const rule = MOVES[kind] as { from: Stage[]; to: Stage }
                  // The app took a step the sale's stage does not allow: the model would be wrong from here.
                  expect(rule.from, `${kind} from ${sale.stage}`).toContain(sale.stage)
                  const e = expected[sellers.indexOf(sale.seller)] as Expected
                  const net = sale.price - sale.fee
                  if (rule.to === 'completed') {
                    e.held -= net
                    e.available += net
                    e.fees += sale.fee
                    stats.completed++
                  } else if (rule.to === 'refunded') {
                    if (sale.stage === 'completed') {
                      e.available -= net
                      e.fees -= sale.fee
                      stats.lateRefunds++
                    } else e.held -= net
                    stats.refunds++
                  }
                  sale.stage = rule.to
                  if (kind === 'cancel') sale.takenDown = true
                  changed = true
                }
              }
              if (!changed) continue
              stats.checked++
              if (expected.some((e) => e.available < 0)) stats.negativeBalance++
              const wrong = await pagesAgainstLedger(sellers, expected, sales)
              expect(wrong, `after ${JSON.stringify(o)}`).toEqual([])
            }
          },
        ),
        { numRuns: RUNS, endOnFailure: true },
      )
      console.info(`seller money property: ${JSON.stringify(stats)}`)
    },
    60_000 + RUNS * 4000,
  )
})

/** The seller's test bank account, through the route the Earnings page uses. */
async function openBank(seller: UserRow, fails: boolean) {
  const res = await call('POST', '/api/payouts/account', seller, {
    account_holder: 'Sam Seller',
    routing_number: '110000000',
    account_number: fails ? '000111111116' : '000123456789',
  })
  expect(res.statusCode, res.body).toBe(200)
}

/** Takes one step of a sale's deal through its route; whether the app took it. */
async function move(kind: string, sale: Sale): Promise<boolean> {
  const id = sale.bookingId
  const res =
    kind === 'handover'
      ? await call('PUT', `/api/bookings/${id}/handed-over`, sale.seller, { note: 'Met at the library' })
      : kind === 'confirm'
        ? await call('PUT', `/api/bookings/${id}/received`, sale.buyer, ALL_TICKED)
        : kind === 'dispute'
          ? await call('POST', `/api/bookings/${id}/problem`, sale.buyer, {
              reason: 'The battery does not hold a charge at all.',
            })
          : kind === 'cancel'
            ? await call('PUT', `/api/bookings/${id}/cancel`, sale.seller, {
                reason: 'It fell off my desk and the screen cracked.',
              })
            : kind === 'late_refund'
              ? await call('POST', `/api/bookings/${id}/refund`, admin, {
                  reason: 'Not as described: the screen is cracked',
                })
              : sale.disputeId
                ? await call(
                    'PUT',
                    `/api/disputes/${sale.disputeId}/${kind === 'release' ? 'release' : 'refund'}`,
                    admin,
                    kind === 'release' ? undefined : { reason: 'Not as described: the screen is cracked' },
                  )
                : null
  if (!res) return false
  if (res.statusCode >= 500) throw new Error(`${kind}: ${res.statusCode} ${res.body}`)
  if (res.statusCode >= 300) {
    stats.refused++
    return false
  }
  if (kind === 'dispute') sale.disputeId = (res.json() as { insertedId: string }).insertedId
  return true
}

type Where = 'in_escrow' | 'available' | 'on_its_way' | 'paid_out' | 'refunded'

/** The figures a sale's pages must show: what the buyer paid, the fee, what the seller receives. */
function saleFigures(s: Sale) {
  return {
    price_cents: s.price,
    fee_cents: s.fee,
    receive_cents: s.stage === 'refunded' ? 0 : s.price - s.fee,
  }
}

/** Where a sale's money may be said to be, by its stage (a completed sale's depends on the payouts). */
function wheresFor(s: Sale): Where[] {
  if (s.stage === 'refunded') return ['refunded']
  if (s.stage === 'completed') return ['available', 'on_its_way', 'paid_out']
  return ['in_escrow']
}

const dollars = (c: number) => (c / 100).toFixed(2)

type Json = Record<string, unknown>

/** Every figure of every page that differs from the ledger's, as "page: what → shown, ledger" lines. */
async function pagesAgainstLedger(
  sellers: UserRow[],
  expected: Expected[],
  sales: Sale[],
): Promise<string[]> {
  const wrong: string[] = []
  const same = (where: string, shown: unknown, want: unknown) => {
    if (JSON.stringify(shown) !== JSON.stringify(want)) {
      wrong.push(`${where}: shows ${JSON.stringify(shown)}, the ledger ${JSON.stringify(want)}`)
    }
  }
  for (const [k, seller] of sellers.entries()) {
    const ledger = await sellerBalances(t.db, seller.id)
    const e = expected[k] as Expected
    // The ledger against what the sequence implies (the oracle the pages' per-sale figures come from).
    same(`seller ${k} ledger`, ledger, {
      held: e.held,
      available: e.available,
      on_its_way: e.on_its_way,
      paid_out: e.paid_out,
    })
    const balances = {
      in_escrow_cents: ledger.held,
      available_cents: ledger.available,
      on_its_way_cents: ledger.on_its_way,
      paid_out_cents: ledger.paid_out,
      fees_cents: e.fees,
    }
    const pick = (body: Json) =>
      Object.fromEntries(Object.keys(balances).map((key) => [key, body[key]])) as typeof balances

    const dash = await call('GET', '/api/dashboard/seller', seller)
    same(`seller ${k} dashboard status`, dash.statusCode, 200)
    same(`seller ${k} dashboard money`, pick(((dash.json() as Json).money ?? {}) as Json), balances)

    const mine = sales.filter((s) => s.seller === seller)
    // The overview's Revenue: what buyers paid for the sales not refunded (the prices agreed).
    const overview = await call('GET', '/api/dashboard/overview', seller)
    same(
      `seller ${k} overview Revenue`,
      ((overview.json() as Json).counts as { label: string; value: string }[] | undefined)?.find(
        (c) => c.label === 'Revenue',
      )?.value,
      formatMoney(mine.filter((s) => s.stage !== 'refunded').reduce((n, s) => n + s.price, 0)),
    )

    const earn = await call('GET', '/api/earnings', seller)
    same(`seller ${k} Earnings status`, earn.statusCode, 200)
    const earnings = earn.json() as Json & { sales: (Json & { booking_id: string; where: Where })[] }
    same(`seller ${k} Earnings`, pick(earnings), balances)
    same(`seller ${k} Earnings sales`, earnings.sales.length, mine.length)
    const listed = new Map(earnings.sales.map((s) => [s.booking_id, s]))
    for (const s of mine) {
      const row = listed.get(s.bookingId)
      const shown = row
        ? { price_cents: row.price_cents, fee_cents: row.fee_cents, receive_cents: row.receive_cents }
        : null
      same(`seller ${k} Earnings sale ${s.bookingId} (${s.stage})`, shown, saleFigures(s))
      if (row && !wheresFor(s).includes(row.where)) {
        wrong.push(`seller ${k} Earnings sale ${s.bookingId} (${s.stage}): where ${row.where}`)
      }
    }
    // What the sales put in the balance adds up to the balances: held ones to Held, completed ones to the rest.
    const sumWhere = (where: Where[]) =>
      earnings.sales.filter((s) => where.includes(s.where)).reduce((n, s) => n + Number(s.receive_cents), 0)
    same(`seller ${k} Earnings: held sales' You receive`, sumWhere(['in_escrow']), ledger.held)
    same(
      `seller ${k} Earnings: completed sales' You receive`,
      sumWhere(['available', 'on_its_way', 'paid_out']),
      ledger.available + ledger.on_its_way + ledger.paid_out,
    )

    // The CSV the page downloads, line by line.
    const csv = earningsCsv(earnings.sales as never).split('\r\n')
    same(`seller ${k} CSV head`, csv[0]?.split(',').slice(3), [
      `${MONEY_WORDS.price} (USD)`,
      `${MONEY_WORDS.fee} (USD)`,
      `${MONEY_WORDS.receive} (USD)`,
      'Where it is',
    ])
    for (const [n, row] of earnings.sales.entries()) {
      const s = allSales.get(row.booking_id)
      if (!s) continue
      const f = saleFigures(s)
      same(`seller ${k} CSV line ${n + 1} (${s.stage})`, csv[n + 1]?.split(',').slice(3), [
        dollars(f.price_cents),
        dollars(f.fee_cents),
        dollars(f.receive_cents),
        WHERE_WORDS[row.where],
      ])
    }

    // My Product: each listing with a sale shows that sale's money, where Earnings says it is.
    const list = await call(
      'GET',
      `/api/products?email=${encodeURIComponent(seller.email)}&limit=100`,
      seller,
    )
    same(`seller ${k} My Product status`, list.statusCode, 200)
    const products = list.json() as (Json & {
      _id: string
      sale: { _id: string } | null
      sale_money?: Json
    })[]
    for (const s of mine) {
      const p = products.find((x) => x._id === s.productId)
      if (s.takenDown) {
        same(`seller ${k} My Product ${s.productId} taken down`, p?._id, undefined)
        continue
      }
      same(`seller ${k} My Product ${s.productId} sale`, p?.sale?._id, s.bookingId)
      same(`seller ${k} My Product ${s.productId} (${s.stage})`, p?.sale_money ?? null, {
        ...saleFigures(s),
        where: listed.get(s.bookingId)?.where,
      })
    }
  }

  // Finance: the marketplace's figures against the ledger's totals, and its recent sales against each sale's.
  const fin = await call('GET', '/api/finance', admin)
  same('Finance status', fin.statusCode, 200)
  const f = fin.json() as Json & { recent_sales: (Json & { booking_id: string })[] }
  const totals = await totalsByKind(t.db)
  const available = allExpected.map((e) => e.available)
  same(
    'Finance',
    {
      held: f.held_for_buyers_cents,
      available: f.sellers_balances_cents,
      owed: f.negative_balances_cents,
      on_its_way: f.on_its_way_cents,
      paid_out: f.paid_out_cents,
      fees: f.fees_cents,
    },
    {
      held: totals.held + totals.held_fees,
      available: available.filter((n) => n > 0).reduce((a, b) => a + b, 0),
      owed: available.filter((n) => n < 0).reduce((a, b) => a + b, 0),
      on_its_way: totals.on_its_way,
      paid_out: totals.paid_out,
      fees: totals.fees,
    },
  )
  for (const row of f.recent_sales) {
    const s = allSales.get(row.booking_id)
    if (!s) continue
    same(
      `Finance sale ${row.booking_id} (${s.stage})`,
      { price_cents: row.price_cents, fee_cents: row.fee_cents, receive_cents: row.receive_cents },
      saleFigures(s),
    )
  }
  return wrong
}
