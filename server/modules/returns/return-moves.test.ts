// The return's table of moves (server/modules/deal/return-moves.ts) is the one home of who may act on a return and
// from which status: every path through the API refuses exactly what the table refuses, with the table's words, in
// every status and for every side of the deal; the carrier's step follows it too; and no code but the table's writes
// a return's status.

import fs from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import {
  AdminReturnList,
  BookingReturn,
  RETURN_ACTIONS,
  RETURN_STATUSES,
  type ReturnStatus,
} from '#contract/returns'
import { bookings, parcels, returns } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import { type BrandRow, createBrand, createParcel, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import {
  assertReturnMove,
  moveReturn,
  RETURN_MOVES,
  RETURN_STATUS_WORDS,
  type ReturnMove,
  type ReturnParty,
  returnMoveFrom,
} from '../deal/return-moves'
import { returnDeliveredBack } from './returns.service'
import { returnsDeps } from './returns-deps'

let t: TestApp
let brand: BrandRow
let buyer: UserRow
let seller: UserRow
let admin: UserRow

beforeAll(async () => {
  t = await createTestApp({ LIVE_HOLDS_PER_BUYER: '100' })
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer' })
  seller = await createUser(t.db, { role: 'seller' })
  admin = await createUser(t.db, { role: 'admin' })
})

afterAll(async () => {
  await t?.close()
})

type Method = 'ship' | 'meet'

/** A handed-over sale with a return of this way back, in whatever status a test sets. */
async function saleWithReturn(method: Method) {
  const { booking } = await dealAt(t, 'handed_over', { buyer, seller, brand })
  await t.db.update(bookings).set({ stage: 'returning' }).where(eq(bookings.id, booking.id))
  const [ret] = await t.db
    .insert(returns)
    .values({
      bookingId: booking.id,
      openedBy: buyer.id,
      method,
      reason: 'The battery does not hold a charge.',
    })
    .returning()
  if (!ret) throw new Error('no return')
  const setStatus = (status: ReturnStatus) =>
    t.db.update(returns).set({ status }).where(eq(returns.id, ret.id))
  const statusNow = async () =>
    (await t.db.select({ status: returns.status }).from(returns).where(eq(returns.id, ret.id)))[0]?.status
  return { bookingId: booking.id, returnId: ret.id, setStatus, statusNow }
}

/** The moves people make through the API, each as its call. */
const CALLS = {
  accept: (s: { bookingId: string }) => ({
    url: `/api/bookings/${s.bookingId}/return/accept`,
    body: undefined,
  }),
  decline: (s: { bookingId: string }) => ({
    url: `/api/bookings/${s.bookingId}/return/decline`,
    body: { reason: 'The laptop left here working and unmarked.' },
  }),
  back_as_sent: (s: { bookingId: string }) => ({
    url: `/api/bookings/${s.bookingId}/return/back`,
    body: { as_sent: true },
  }),
  back_otherwise: (s: { bookingId: string }) => ({
    url: `/api/bookings/${s.bookingId}/return/back`,
    body: { as_sent: false, note: 'The screen came back cracked.' },
  }),
  admin_accept: (s: { returnId: string }) => ({
    url: `/api/returns/${s.returnId}/decide`,
    body: { decision: 'accept', reason: 'The photos show the fault the buyer describes.' },
  }),
  refuse: (s: { returnId: string }) => ({
    url: `/api/returns/${s.returnId}/decide`,
    body: { decision: 'refuse', reason: 'The photos show no fault at all.' },
  }),
} as const satisfies Partial<Record<ReturnMove, unknown>>

const PEOPLE: Record<Exclude<ReturnParty, 'system'>, () => UserRow> = {
  buyer: () => buyer,
  seller: () => seller,
  admin: () => admin,
}

async function put(who: UserRow, call: { url: string; body: unknown }) {
  const res = await t.app.inject({
    method: 'PUT',
    url: call.url,
    headers: await bearerFor(t.app, who),
    ...(call.body === undefined ? {} : { payload: call.body as Record<string, unknown> }),
  })
  return {
    status: res.statusCode,
    message: res.statusCode >= 400 ? ErrorBody.parse(res.json()).error.message : '',
  }
}

/** The refusal the table gives a status that does not start the move, as the API answers it. */
function refusalOf(move: ReturnMove, status: ReturnStatus) {
  const m: { words: string; early?: { statuses: readonly ReturnStatus[]; words: string } } =
    RETURN_MOVES[move]
  const words = m.early?.statuses.includes(status) ? m.early.words : m.words
  return { status: 409, message: `You cannot ${words}: this return ${RETURN_STATUS_WORDS[status]}` }
}

describe('every return path asks the return’s table', () => {
  for (const method of ['meet', 'ship'] as const) {
    it(`a ${method} return: each call refuses every status its move does not start from, and every side not its own`, async () => {
      const sale = await saleWithReturn(method)
      for (const [move, callOf] of Object.entries(CALLS) as [
        keyof typeof CALLS,
        (s: typeof sale) => { url: string; body: unknown },
      ][]) {
        const m: { by: readonly ReturnParty[]; refusal: string } = RETURN_MOVES[move]
        const from = returnMoveFrom(move, method)
        const mover = PEOPLE[m.by[0] as keyof typeof PEOPLE]()
        for (const status of RETURN_STATUSES) {
          await sale.setStatus(status)
          // Someone whose move it is not: 403 with the table's words, whatever the status (the admin's own route
          // turns a buyer or seller away before it reaches the table).
          for (const [party, person] of Object.entries(PEOPLE)) {
            if (m.by.includes(party as ReturnParty) || move === 'admin_accept' || move === 'refuse') continue
            expect(await put(person(), callOf(sale)), `${move} by ${party} from ${status}`).toEqual({
              status: 403,
              message: m.refusal,
            })
          }
          if (from.includes(status)) continue
          expect(await put(mover, callOf(sale)), `${move} from ${status}`).toEqual(refusalOf(move, status))
          expect(await sale.statusNow()).toBe(status)
        }
      }
    })
  }

  it('the carrier’s "delivered back" moves only a shipped return on its way back, as the table says', async () => {
    const deps = returnsDeps(t.app.ctx)
    for (const method of ['meet', 'ship'] as const) {
      const sale = await saleWithReturn(method)
      for (const status of RETURN_STATUSES) {
        await sale.setStatus(status)
        const moved = await t.db.transaction((tx) => returnDeliveredBack(tx, deps, sale.returnId))
        const allowed = returnMoveFrom('deliver_back', method).includes(status)
        expect(moved, `${method} from ${status}`).toBe(allowed)
        expect(await sale.statusNow()).toBe(allowed ? RETURN_MOVES.deliver_back.to : status)
      }
    }
  })

  it('a return tells each reader the moves the table gives them now, and the pages offer those alone', async () => {
    const readAs = async (who: UserRow, bookingId: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/bookings/${bookingId}/return`,
        headers: await bearerFor(t.app, who),
      })
      expect(res.statusCode).toBe(200)
      return BookingReturn.parse(res.json()).return?.moves
    }
    for (const method of ['meet', 'ship'] as const) {
      const sale = await saleWithReturn(method)
      for (const status of RETURN_STATUSES) {
        await sale.setStatus(status)
        for (const [party, person] of Object.entries(PEOPLE)) {
          // Written from the table here, not by the code under test: the person moves of this party from this
          // status (the lost parcel's only with a lost parcel, below).
          const expected = RETURN_ACTIONS.filter((move) => {
            const m: { by: readonly ReturnParty[]; parcelLost?: true } = RETURN_MOVES[move]
            return (
              !m.parcelLost &&
              m.by.includes(party as ReturnParty) &&
              returnMoveFrom(move, method).includes(status)
            )
          })
          expect(
            await readAs(person(), sale.bookingId),
            `${party} reading a ${method} return ${status}`,
          ).toEqual(expected)
        }
      }
    }
    // A shipped return whose parcel the carrier lost: an admin is offered ending it, in the list and on the sale.
    const lost = await saleWithReturn('ship')
    await lost.setStatus('label_bought')
    await createParcel(t.db, { bookingId: lost.bookingId, returnId: lost.returnId, status: 'in_transit' })
    expect(await readAs(admin, lost.bookingId)).toEqual([])
    await t.db.update(parcels).set({ status: 'failure' }).where(eq(parcels.returnId, lost.returnId))
    expect(await readAs(admin, lost.bookingId)).toEqual(['lost_refund', 'lost_release'])
    expect(await readAs(seller, lost.bookingId)).toEqual([])
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/returns?status=awaiting',
      headers: await bearerFor(t.app, admin),
    })
    const listed = AdminReturnList.parse(list.json()).find((r) => r._id === lost.returnId)
    expect(listed?.moves).toEqual(['lost_refund', 'lost_release'])
  })

  it('a lost parcel’s move is refused by the table itself unless the return’s parcel is said lost', async () => {
    const sale = await saleWithReturn('ship')
    await sale.setStatus('label_bought')
    const onItsWay = { id: sale.returnId, status: 'label_bought', method: 'ship' } as const
    for (const move of ['lost_refund', 'lost_release'] as const) {
      // Refused as the status's refusal, in the words the admin's decision gives a return on its way back.
      expect(() => assertReturnMove(move, ['admin'], onItsWay), move).toThrow(
        refusalOf(move, 'label_bought').message,
      )
      expect(() => assertReturnMove(move, ['admin'], { ...onItsWay, parcelLost: false }), move).toThrow(
        refusalOf(move, 'label_bought').message,
      )
      await expect(t.db.transaction((tx) => moveReturn(tx, onItsWay, move, ['admin']))).rejects.toThrow(
        refusalOf(move, 'label_bought').message,
      )
      expect(await sale.statusNow()).toBe('label_bought')
      expect(() => assertReturnMove(move, ['admin'], { ...onItsWay, parcelLost: true })).not.toThrow()
      expect(() => assertReturnMove(move, ['seller'], { ...onItsWay, parcelLost: true })).toThrow(
        RETURN_MOVES[move].refusal,
      )
    }
  })

  it('no code but the table’s writes a return’s status', () => {
    const root = path.resolve(import.meta.dirname, '../..')
    const home = path.join(root, 'modules/deal/return-moves.ts')
    const writers: string[] = []
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(file)
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && file !== home) {
          const text = fs.readFileSync(file, 'utf8')
          // An update of the returns table whose set names a status, or an insert of a return.
          if (
            /\.update\(returns\)\s*\.set\(\{[^}]*\bstatus\b/.test(text) ||
            /\.insert\(returns\)/.test(text)
          ) {
            writers.push(path.relative(root, file))
          }
        }
      }
    }
    walk(path.join(root, 'modules'))
    walk(path.join(root, 'jobs'))
    expect(writers).toEqual([])
  })
})
