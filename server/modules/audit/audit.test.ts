// The audit log: append-only in the database, a row for every admin action (found from the route table, so a
// new admin route without one fails here), security events from sign-in to sign-out, and the admin's reader.

import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditEvents, bookings, returns } from '#server/db/schema'
import type { GuardExtension } from '#server/lib/guard'
import { rowsOf } from '#server/lib/paging'
import { serialKey } from '#server/modules/listing-reviews'
import {
  auditEventsSince,
  buildIdentities,
  type Fixtures,
  injectAs,
  lastAuditId,
  originOf,
  postSignIn,
  type SignedIn,
  signIn,
  signUp,
  TEST_PASSWORD,
} from '#server/test/auth-helpers'
import { type DealParties, type DealStage, dealAt } from '#server/test/deals'
import { createProduct } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let f: Fixtures

beforeAll(async () => {
  t = await createTestApp()
  f = (await buildIdentities(t)).fixtures
})
afterAll(() => t?.close())

async function call(
  who: { cookie: string },
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
) {
  return injectAs(t.app, { headers: { cookie: who.cookie } }, { method, url, body })
}

async function ok<R extends { statusCode: number; body: string }>(res: R, what: string): Promise<R> {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`)
  return res
}

/** A new listing of `seller`'s, booked by `buyer`, at `stage`. */
const deal = (stage: DealStage, extra: Partial<DealParties> = {}) =>
  dealAt(t, stage, { buyer: f.buyer, seller: f.seller, brand: f.brand, ...extra })

async function disputedDeal(): Promise<string> {
  const { disputeId } = await deal('disputed', { problem: 'The battery does not hold a charge.' })
  return disputeId ?? ''
}

/** A return the buyer opened on a handed-over sale, waiting for a decision. */
async function requestedReturn(): Promise<string> {
  const { booking } = await deal('handed_over')
  await t.db.update(bookings).set({ stage: 'returning' }).where(eq(bookings.id, booking.id))
  const [row] = await t.db
    .insert(returns)
    .values({
      bookingId: booking.id,
      openedBy: f.buyer.id,
      method: 'meet',
      reason: 'The battery holds 40 minutes, the listing said four hours.',
      failedCheck: 'battery_as_described',
    })
    .returning({ id: returns.id })
  return row?.id ?? ''
}

/** A published review of `seller` by `buyer`, reported by `otherBuyer`. */
async function reportedReview(): Promise<string> {
  const bookingId = (await deal('completed', { handoverNote: 'At the library' })).booking.id
  let reviewId = ''
  for (const who of [f.buyer, f.seller]) {
    const res = await ok(
      await call(who, 'POST', `/api/bookings/${bookingId}/review`, { rating: 5, text: 'Smooth sale.' }),
      'review',
    )
    if (who === f.buyer) reviewId = (res.json() as { insertedId: string }).insertedId
  }
  await ok(
    await call(f.otherBuyer, 'POST', `/api/reviews/${reviewId}/report`, { reason: 'Not about the sale.' }),
    'report review',
  )
  return reviewId
}

/**
 * Each route an admin may call to change something, called once so that it succeeds. A route that is in the
 * route table but not here fails the test below: add its row (and make its handler use `audited`).
 */
const SUCCESSFUL_CALLS: Record<string, () => Promise<{ url: string; body?: unknown; target: string }>> = {
  'PUT /api/buyers/admin/{id}': async () => {
    const { id } = await f.freshUser('buyer')
    return { url: `/api/buyers/admin/${id}`, target: `user:${id}` }
  },
  'DELETE /api/buyers/admin/{id}': async () => {
    const { id } = await f.freshUser('admin')
    return { url: `/api/buyers/admin/${id}`, target: `user:${id}` }
  },
  'PUT /api/sellers/verify/{id}': async () => {
    const { id } = await f.freshUser('seller')
    return { url: `/api/sellers/verify/${id}`, target: `user:${id}` }
  },
  'DELETE /api/buyers/{id}': async () => {
    const { id } = await f.freshUser('buyer')
    return { url: `/api/buyers/${id}`, target: `user:${id}` }
  },
  'DELETE /api/sellers/{id}': async () => {
    const { id } = await f.freshUser('seller')
    return { url: `/api/sellers/${id}`, target: `user:${id}` }
  },
  'DELETE /api/products/{id}': async () => {
    const { id } = await f.freshListing()
    return { url: `/api/products/${id}`, target: `product:${id}` }
  },
  'PUT /api/reports/{id}/dismiss': async () => {
    const { id } = await f.freshReport()
    return { url: `/api/reports/${id}/dismiss`, target: `report:${id}` }
  },
  'PUT /api/reports/{id}/remove': async () => {
    const { id } = await f.freshReport()
    return { url: `/api/reports/${id}/remove`, target: `report:${id}` }
  },
  'PUT /api/disputes/{id}/refund': async () => {
    const id = await disputedDeal()
    return {
      url: `/api/disputes/${id}/refund`,
      body: { reason: 'Not as described: the screen is cracked' },
      target: `dispute:${id}`,
    }
  },
  'POST /api/bookings/{id}/refund': async () => {
    const { booking } = await deal('completed')
    return {
      url: `/api/bookings/${booking.id}/refund`,
      body: { reason: 'Not as described: the screen is cracked' },
      target: `booking:${booking.id}`,
    }
  },
  'PUT /api/disputes/{id}/return-first': async () => {
    const id = await disputedDeal()
    return {
      url: `/api/disputes/${id}/return-first`,
      body: { reason: 'The laptop comes back before the refund' },
      target: `dispute:${id}`,
    }
  },
  'PUT /api/returns/{id}/decide': async () => {
    const id = await requestedReturn()
    return {
      url: `/api/returns/${id}/decide`,
      body: { decision: 'accept', reason: 'The photos show the cracked hinge' },
      target: `return:${id}`,
    }
  },
  'PUT /api/disputes/{id}/release': async () => {
    const id = await disputedDeal()
    return { url: `/api/disputes/${id}/release`, target: `dispute:${id}` }
  },
  'PUT /api/reviews/{id}/remove': async () => {
    const id = await reportedReview()
    return { url: `/api/reviews/${id}/remove`, target: `review:${id}` }
  },
  'PUT /api/reviews/{id}/dismiss': async () => {
    const id = await reportedReview()
    return { url: `/api/reviews/${id}/dismiss`, target: `review:${id}` }
  },
  'PUT /api/listing-reviews/{id}/approve': async () => {
    const id = await pendingListing()
    return { url: `/api/listing-reviews/${id}/approve`, target: `product:${id}` }
  },
  'PUT /api/listing-reviews/{id}/reject': async () => {
    const id = await pendingListing()
    return {
      url: `/api/listing-reviews/${id}/reject`,
      body: { reason: 'The photos are not of this laptop: upload your own.' },
      target: `product:${id}`,
    }
  },
  'POST /api/stolen-serials': async () => {
    const id = await pendingListing('AUDIT-SERIAL-1')
    return { url: '/api/stolen-serials', body: { product_id: id }, target: `product:${id}` }
  },
}

/** A new listing of `seller`'s waiting for review (with a serial when one is given). */
async function pendingListing(serial?: string): Promise<string> {
  const key = serial ? serialKey(serial) : null
  const row = await createProduct(t.db, {
    seller: { id: f.seller.id },
    brand: f.brand,
    reviewState: 'pending',
    reviewSubmittedAt: new Date(),
    serialHash: key?.hash ?? null,
    serialLast4: key?.last4 ?? null,
  })
  return row.id
}

type Operation = { 'x-guard'?: GuardExtension; 'x-audit'?: string }

/** Every route an admin may call to change something, with the kind its audit rows carry. */
async function auditedRoutes(): Promise<Map<string, string | undefined>> {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, Operation>>
  }
  const found = new Map<string, string | undefined>()
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) {
      const roles = op['x-guard']?.roles
      if (method !== 'get' && method !== 'head' && roles?.includes('admin')) {
        found.set(`${method.toUpperCase()} ${path}`, op['x-audit'])
      }
    }
  return found
}

describe('the audit table', () => {
  it('refuses UPDATE, DELETE and TRUNCATE, whoever asks', async () => {
    await t.db.insert(auditEvents).values({ kind: 'sign_in', result: 'success', detail: 'kept' })
    for (const statement of [
      sql`update audit_events set detail = 'changed'`,
      sql`delete from audit_events`,
      sql`truncate audit_events`,
    ]) {
      const err = await t.db.execute(statement).then(
        () => undefined,
        (e: Error) => e,
      )
      expect(String((err?.cause as Error | undefined)?.message ?? err?.message)).toMatch(/append-only/)
    }
    const kept = await t.db.select().from(auditEvents).where(eq(auditEvents.detail, 'kept'))
    expect(kept).toHaveLength(1)
  })
})

describe('every admin route writes an audit row', () => {
  it('finds the admin routes from the route table, each declaring its kind', async () => {
    const routes = await auditedRoutes()
    expect(routes.size).toBeGreaterThanOrEqual(Object.keys(SUCCESSFUL_CALLS).length)
    for (const [route, kind] of routes) expect(kind, route).toMatch(/^[a-z_.]+$/)
    expect([...routes.keys()].filter((r) => !(r in SUCCESSFUL_CALLS))).toEqual([])
  })

  it('writes a success row, in the transaction of the change, for each of them', async () => {
    for (const [route, kind] of await auditedRoutes()) {
      const make = SUCCESSFUL_CALLS[route]
      if (!make) continue
      const { url, body, target } = await make()
      const before = await lastAuditId(t.db)
      const method = route.split(' ')[0] as 'PUT' | 'DELETE' | 'POST'
      const res = await call(f.admin, method, url, body)
      expect([200, 201], `${route}: ${res.body}`).toContain(res.statusCode)
      const rows = (await auditEventsSince(t.db, before)).filter((r) => r.kind === kind)
      expect(rows, route).toHaveLength(1)
      expect(rows[0], route).toMatchObject({ actorId: f.admin.id, target, result: 'success', detail: null })
      expect(rows[0]?.ip, route).toBeTruthy()
    }
  })

  it('writes a denied row when someone without the right tries one', async () => {
    for (const [route, kind] of await auditedRoutes()) {
      const before = await lastAuditId(t.db)
      const url = route.split(' ')[1]?.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000') ?? ''
      const method = route.split(' ')[0] as 'PUT' | 'DELETE' | 'POST'
      const res = await call(f.buyer, method, url)
      if (route === 'DELETE /api/products/{id}') expect(res.statusCode).toBe(403)
      else expect(res.statusCode, route).toBe(403)
      const rows = (await auditEventsSince(t.db, before)).filter((r) => r.kind === kind)
      expect(rows, route).toMatchObject([{ actorId: f.buyer.id, result: 'denied' }])
    }
  })

  it('writes a failure row, and nothing of the change, when the action is refused', async () => {
    const before = await lastAuditId(t.db)
    const res = await call(f.admin, 'DELETE', `/api/buyers/${f.admin.id}`)
    expect(res.statusCode).toBe(403)
    const rows = await auditEventsSince(t.db, before)
    expect(rows).toMatchObject([
      {
        kind: 'user.delete',
        actorId: f.admin.id,
        target: `user:${f.admin.id}`,
        result: 'denied',
        detail: 'FORBIDDEN 403',
      },
    ])
  })
})

describe('security events', () => {
  let person: SignedIn
  beforeAll(async () => {
    person = await signUp(t.app, { role: 'buyer' })
  })

  it('records sign-in failed and succeeded, password change and sign-out, with address and browser', async () => {
    const before = await lastAuditId(t.db)
    const headers = { 'user-agent': 'AuditTest/1.0', 'x-forwarded-for': '203.0.113.7' }
    expect(
      (await postSignIn(t.app, { email: person.user.email, password: 'wrong-password-1' }, headers))
        .statusCode,
    ).toBe(401)
    const signedIn = await postSignIn(t.app, { email: person.user.email, password: TEST_PASSWORD }, headers)
    expect(signedIn.statusCode).toBe(200)
    const cookie = (signedIn.headers['set-cookie'] as string[]).map((c) => c.split(';')[0]).join('; ')
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: { cookie, origin: originOf(t.app), ...headers },
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'a-new-password-7' },
    })
    expect(changed.statusCode).toBe(200)
    const newCookie = (changed.headers['set-cookie'] as string[]).map((c) => c.split(';')[0]).join('; ')
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: newCookie, origin: originOf(t.app), ...headers },
    })
    const rows = await auditEventsSince(t.db, before)
    expect(rows.map((r) => [r.kind, r.result, r.actorId])).toEqual([
      ['sign_in', 'failure', person.user.id],
      ['sign_in', 'success', person.user.id],
      ['sign_in.new_device', 'success', person.user.id],
      ['password.change', 'success', person.user.id],
      ['sign_out', 'success', person.user.id],
    ])
    for (const row of rows) expect(row.userAgent).toBe('AuditTest/1.0')
    // Nothing typed is kept: no password, old or new, in any column of any row.
    const everything = JSON.stringify(await t.db.select().from(auditEvents))
    for (const secret of [TEST_PASSWORD, 'wrong-password-1', 'a-new-password-7']) {
      expect(everything).not.toContain(secret)
    }
  })

  it('records a sign-in for an address nobody has, without the address', async () => {
    const before = await lastAuditId(t.db)
    await postSignIn(t.app, { email: 'nobody-here@example.test', password: 'guess-guess-1' })
    const rows = await auditEventsSince(t.db, before)
    expect(rows).toMatchObject([{ kind: 'sign_in', result: 'failure', actorId: null }])
    expect(JSON.stringify(rows)).not.toContain('nobody-here')
  })

  it('shows a person their own security events, and nobody else’s', async () => {
    const mine = await call(f.buyer, 'GET', '/api/me/security-events')
    expect(mine.statusCode).toBe(200)
    const again = await signIn(t.app, { email: person.user.email, password: 'a-new-password-7' })
    const theirs = await call(again, 'GET', '/api/me/security-events')
    const kinds = (theirs.json() as { items: { kind: string }[] }).items.map((i) => i.kind)
    expect(kinds).toEqual(expect.arrayContaining(['sign_in', 'password.change', 'sign_out']))
    const admin = await call(f.admin, 'GET', '/api/me/security-events')
    // The admin's own list holds no other person's sign-ins, nor admin actions.
    const items = (admin.json() as { items: { kind: string }[] }).items
    expect(items.every((i) => !i.kind.startsWith('user.'))).toBe(true)
  })
})

describe('GET /api/audit-log', () => {
  it('answers admins, newest first, filtered by person, kind and time, a page at a time', async () => {
    const all = await call(f.admin, 'GET', '/api/audit-log?page_size=5')
    expect(all.statusCode).toBe(200)
    const page = all.json() as {
      items: { at: string; kind: string; actor_email: string | null }[]
      has_more: boolean
    }
    expect(page.items).toHaveLength(5)
    expect(page.has_more).toBe(true)
    const times = page.items.map((i) => i.at)
    expect([...times].sort().reverse()).toEqual(times)
    expect(times[0]).toMatch(/Z$/)
    const second = (await call(f.admin, 'GET', '/api/audit-log?page_size=5&page=2')).json() as typeof page
    expect((second.items[0]?.at ?? '') <= (times[4] ?? '')).toBe(true)

    const byKind = (await call(f.admin, 'GET', '/api/audit-log?kind=user.make_admin')).json() as typeof page
    expect(byKind.items.length).toBeGreaterThan(0)
    expect(byKind.items.every((i) => i.kind === 'user.make_admin')).toBe(true)

    const byPerson = (
      await call(
        f.admin,
        'GET',
        `/api/audit-log?actor_email=${encodeURIComponent(f.buyer.email.toUpperCase())}`,
      )
    ).json() as typeof page
    expect(byPerson.items.length).toBeGreaterThan(0)
    expect(byPerson.items.every((i) => i.actor_email === f.buyer.email)).toBe(true)

    const future = new Date(Date.now() + 60_000).toISOString()
    const none = (await call(f.admin, 'GET', `/api/audit-log?since=${future}`)).json() as typeof page
    expect(none.items).toEqual([])
    const past = (
      await call(f.admin, 'GET', `/api/audit-log?until=2000-01-01T00:00:00Z`)
    ).json() as typeof page
    expect(past.items).toEqual([])
  })

  it('names what each row acted on as people read it, the id kept beside it', async () => {
    const person = await f.freshUser('seller')
    await ok(await call(f.admin, 'PUT', `/api/sellers/verify/${person.id}`), 'verify')
    const listing = await f.freshListing()
    await ok(await call(f.admin, 'DELETE', `/api/products/${listing.id}`), 'remove listing')
    const { id: reportId } = await f.freshReport()
    await ok(await call(f.admin, 'PUT', `/api/reports/${reportId}/dismiss`), 'dismiss')
    const page = (await call(f.admin, 'GET', '/api/audit-log?page_size=3')).json() as {
      items: { target: string | null; target_label: string | null }[]
    }
    const [name] = await rowsOf<{ name: string }>(
      t.db,
      sql`select p.name from reports r join products p on p.id = r.product_id where r.id = ${reportId}`,
    )
    expect(page.items.map((i) => [i.target, i.target_label])).toEqual([
      [`report:${reportId}`, `report on ${name?.name}`],
      [`product:${listing.id}`, listing.name],
      [`user:${person.id}`, `${person.name} (${person.email})`],
    ])
  })

  it('refuses others and bad filters', async () => {
    expect((await call(f.buyer, 'GET', '/api/audit-log')).statusCode).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: '/api/audit-log' })).statusCode).toBe(401)
    expect((await call(f.admin, 'GET', '/api/audit-log?kind=nonsense')).statusCode).toBe(400)
    expect((await call(f.admin, 'GET', '/api/audit-log?since=yesterday')).statusCode).toBe(400)
    expect((await call(f.admin, 'GET', '/api/audit-log?page_size=1000')).statusCode).toBe(400)
  })
})
