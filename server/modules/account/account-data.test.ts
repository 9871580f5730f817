// Your data: the export, checked field by field against what the person made, and erasure, checked by
// searching every table for the person's address and name afterwards.

import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { favourites, payments, products, savedSearches, users } from '#server/db/schema'
import {
  insertListing,
  originOf,
  postSignIn,
  type SignedIn,
  signUp,
  TEST_PASSWORD,
} from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import { createBrand } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { currentCode, enableTwoStep } from '#server/test/two-factor'
import type { AccountExport } from './export.service'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

async function as(
  who: { cookie: string },
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  const res = await t.app.inject({
    method,
    url,
    headers: { cookie: who.cookie, origin: originOf(t.app) },
    payload: payload as object,
  })
  return res
}

async function must(res: { statusCode: number; body: string }, what: string) {
  if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`)
}

/** A sale of a new listing of `seller`'s to `buyer`, paid, and (unless asked to stop there) completed. */
async function sale(seller: SignedIn, buyer: SignedIn, until: 'paid' | 'completed') {
  // A buyer confirms their address before paying.
  await t.db.update(users).set({ emailVerified: true }).where(eq(users.id, buyer.user.id))
  const deal = await dealAt(t, until, {
    buyer: buyer.user,
    seller: seller.user,
    brand: await createBrand(t.db),
    handoverNote: 'At the cafe',
  })
  return { listing: deal.product, booking: deal.booking }
}

describe('GET /api/me/export', () => {
  it('gives everything held about the person as one JSON file, secrets left out', async () => {
    const seller = await signUp(t.app, { role: 'seller' })
    const buyer = await signUp(t.app, { role: 'buyer', name: 'Export Person' })
    const { listing, booking } = await sale(seller, buyer, 'completed')
    await must(
      await as(buyer, 'POST', `/api/bookings/${booking.id}/messages`, { body: 'Thanks, it works well' }),
      'message',
    )
    await must(
      await as(buyer, 'POST', `/api/bookings/${booking.id}/review`, { rating: 5, text: 'Lovely laptop.' }),
      'review',
    )
    await t.db.insert(favourites).values({
      userId: buyer.user.id,
      productId: (await insertListing(t.db, { sellerId: seller.user.id })).id,
      savedPriceCents: 50_000,
      alertPriceCents: 45_000,
    })
    await t.db
      .insert(savedSearches)
      .values({ userId: buyer.user.id, query: 'q=thinkpad', filters: {}, alert: 'daily' })

    await postSignIn(t.app, { email: buyer.user.email, password: 'a wrong guess' })
    const res = await as(buyer, 'GET', '/api/me/export')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="laptop-market-data-\d{4}-\d{2}-\d{2}\.json"$/,
    )
    // Indented, one field a line, for a person to read as well as a program.
    expect(res.body.split('\n').length).toBeGreaterThan(50)
    expect(res.body).toMatch(/^\{\n {2}"about_this_file": "/)
    const data = res.json() as AccountExport
    expect(data.format).toBe('laptop-market-export/2')
    // Sections by human name; no database name ("accounts.user_id") anywhere in their titles.
    for (const s of data.sections) expect(s.title).not.toMatch(/[._]/)
    const section = (title: string) => data.sections.find((s) => s.title === title)?.items ?? []
    expect(data.you).toMatchObject({
      id: buyer.user.id,
      name: 'Export Person',
      email: buyer.user.email,
      role: 'buyer',
      two_factor_enabled: false,
    })
    const [booked] = section('Laptops you booked or bought')
    expect(booked).toMatchObject({
      id: booking.id,
      product_id: listing.id,
      buyer_id: buyer.user.id,
      user_name: expect.any(String),
      email: buyer.user.email,
      stage: 'completed',
    })
    expect(section('Messages you wrote')).toMatchObject([
      { booking_id: booking.id, body: 'Thanks, it works well' },
    ])
    expect(section('Reviews you wrote')).toMatchObject([{ rating: 5, text: 'Lovely laptop.' }])
    expect(section('Your favourites')).toMatchObject([
      { saved_price_cents: 50_000, alert_price_cents: 45_000 },
    ])
    expect(section('Your saved searches')).toMatchObject([{ query: 'q=thinkpad', alert: 'daily' }])
    expect(section('Payments you made')).toHaveLength(
      (await t.db.select().from(payments).where(eq(payments.buyerId, buyer.user.id))).length,
    )
    expect(section('Ways you sign in')).toMatchObject([{ provider_id: 'credential' }])
    expect(data.security_events.items).toMatchObject([
      { kind: 'sign_in', what: 'Signed in with a password', result: 'failure' },
    ])
    // No password hash, session token or other secret, under any name.
    const text = res.body
    expect(text).not.toMatch(/"(password|token|access_token|refresh_token|id_token|secret|backup_codes)"/)
    const [hash] = await t.db
      .execute(sql`select password from accounts where user_id = ${buyer.user.id}`)
      .then((r) => (r as unknown as { rows: { password: string }[] }).rows)
    expect(text).not.toContain(hash?.password)
    expect(text).not.toContain(buyer.cookie.split('=')[1]?.split('.')[0])

    // A seller's export holds their listings.
    const sellerData = (await as(seller, 'GET', '/api/me/export')).json() as AccountExport
    const listed = sellerData.sections.find((s) => s.title === 'Laptops you listed')?.items ?? []
    expect(listed.map((p) => p.id)).toContain(listing.id)
  })

  it('holds every security event, however many, and a short summary a person can read', async () => {
    const who = await signUp(t.app, { role: 'buyer', name: 'Many <Events>' })
    for (let i = 0; i < 25; i++) await postSignIn(t.app, { email: who.user.email, password: 'a wrong guess' })
    const data = (await as(who, 'GET', '/api/me/export')).json() as AccountExport
    expect(data.security_events.count).toBe(25)
    expect(data.security_events.items).toHaveLength(25)

    const summary = await as(who, 'GET', '/api/me/export/summary')
    expect(summary.statusCode).toBe(200)
    expect(summary.headers['content-type']).toMatch(/^text\/html/)
    expect(summary.headers['content-disposition']).toMatch(
      /laptop-market-data-\d{4}-\d{2}-\d{2}-summary\.html"$/,
    )
    expect(summary.body).toContain('<h1>Your Laptop Market data</h1>')
    expect(summary.body).toContain('Many &lt;Events&gt;')
    expect(summary.body).toMatch(/Security events<br><small>[^<]*<\/small><\/td><td>2[56]<\/td>/)
    expect(summary.body).toContain('Signed in with a password (failure)')
    expect((await t.app.inject({ method: 'GET', url: '/api/me/export/summary' })).statusCode).toBe(401)
  })

  it('is for the signed-in person only', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/me/export' })).statusCode).toBe(401)
  })
})

/** Every text column of every table in the database, searched for any of the strings, in one pass. */
async function tablesContaining(...needles: string[]): Promise<string[]> {
  const columns = (
    (await t.db.execute(sql`
      select table_schema, table_name, column_name from information_schema.columns
      where table_schema not in ('pg_catalog', 'information_schema')
        and data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`)) as unknown as {
      rows: { table_schema: string; table_name: string; column_name: string }[]
    }
  ).rows
  const found: string[] = []
  for (const c of columns) {
    const [row] = (
      (await t.db.execute(
        sql`select count(*)::int as n from ${sql.identifier(c.table_schema)}.${sql.identifier(c.table_name)}
            where ${sql.join(
              needles.map((needle) => sql`${sql.identifier(c.column_name)}::text ilike ${`%${needle}%`}`),
              sql` or `,
            )}`,
      )) as unknown as { rows: { n: number }[] }
    ).rows
    if ((row?.n ?? 0) > 0) found.push(`${c.table_schema}.${c.table_name}.${c.column_name}`)
  }
  return found
}

describe('DELETE /api/me', () => {
  it('is refused with the reason while a sale is open, and with a wrong password', async () => {
    const seller = await signUp(t.app, { role: 'seller' })
    const buyer = await signUp(t.app, { role: 'buyer' })
    const before = await as(buyer, 'GET', '/api/me/erasure')
    expect(before.json()).toEqual({ can_erase: true, reason: null })
    await sale(seller, buyer, 'paid')
    for (const who of [buyer, seller]) {
      // Asked first, before any password: the same rule and the same words as the refusal.
      const check = await as(who, 'GET', '/api/me/erasure')
      expect(check.statusCode).toBe(200)
      expect(check.json()).toEqual({ can_erase: false, reason: expect.stringMatching(/still open/) })
      const open = await as(who, 'DELETE', '/api/me', { password: TEST_PASSWORD })
      expect(open.statusCode).toBe(409)
      expect(open.json().error.message).toBe(check.json().reason)
    }
    const wrong = await as(buyer, 'DELETE', '/api/me', { password: 'not-my-password' })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json().error.fields).toEqual({ password: 'Wrong password' })
    const [row] = await t.db.select().from(users).where(eq(users.id, buyer.user.id))
    expect(row?.erasedAt).toBeNull()
  })

  it('asks for a code when two-step sign-in is on', async () => {
    const who = await signUp(t.app, { role: 'buyer' })
    const { totpURI, cookie } = await enableTwoStep(t.app, who)
    const noCode = await as({ cookie }, 'DELETE', '/api/me', { password: TEST_PASSWORD })
    expect(noCode.statusCode).toBe(400)
    expect(noCode.json().error.message).toMatch(/code/)
    const wrongCode = await as({ cookie }, 'DELETE', '/api/me', { password: TEST_PASSWORD, code: '000000' })
    expect(wrongCode.statusCode).toBe(400)
    expect(wrongCode.json().error.fields).toEqual({
      code: 'That code is not right. Enter the current code from your authenticator app, or a backup code.',
    })
    const ok = await as({ cookie }, 'DELETE', '/api/me', {
      password: TEST_PASSWORD,
      code: await currentCode(totpURI, 1),
    })
    expect(ok.statusCode, ok.body).toBe(200)
  })

  it('is refused while money is held for a seller', async () => {
    const seller = await signUp(t.app, { role: 'seller' })
    const buyer = await signUp(t.app, { role: 'buyer' })
    await sale(seller, buyer, 'completed')
    const held = await as(seller, 'DELETE', '/api/me', { password: TEST_PASSWORD })
    expect(held.statusCode).toBe(409)
    expect(held.json().error.message).toMatch(/Money is still held/)
    expect((await as(seller, 'GET', '/api/me/erasure')).json()).toEqual({
      can_erase: false,
      reason: held.json().error.message,
    })
  })

  it('erases the person: nothing left with their address or name, listings gone, the other side keeps the conversation', async () => {
    const uniqueName = `Quillon Erasmus ${randomUUID().slice(0, 6)}`
    const seller = await signUp(t.app, { role: 'seller' })
    const buyer = await signUp(t.app, { role: 'buyer', name: uniqueName })
    const { booking } = await sale(seller, buyer, 'completed')
    await must(
      await as(buyer, 'POST', `/api/bookings/${booking.id}/messages`, { body: 'Thanks, all good!' }),
      'message',
    )
    await must(
      await as(buyer, 'POST', `/api/bookings/${booking.id}/messages`, {
        body: `Call me on (512) 555-0142 or write to ${buyer.user.email.replace('@', '.home@')}; refunds to IBAN GB33 BUKB 2020 1555 5555 55.`,
      }),
      'message with contact details',
    )
    await t.db.update(users).set({ phone: '(512) 555-0199' }).where(eq(users.id, buyer.user.id))
    await t.app.ctx.jobs.drain('email')
    t.outbox.length = 0
    for (const held of [buyer.user.email, uniqueName]) expect(await tablesContaining(held)).not.toEqual([])

    const res = await as(buyer, 'DELETE', '/api/me', { password: TEST_PASSWORD })
    expect(res.statusCode, res.body).toBe(200)

    // One email, to the address the account had, and then the queue forgets the address.
    await t.app.ctx.jobs.drain('email')
    expect(t.outbox.map((m) => [m.to, m.subject])).toEqual([
      [buyer.user.email, 'Your Laptop Market account is erased'],
    ])
    expect(await tablesContaining(buyer.user.email, uniqueName, '555-0199', '555-0142', 'GB33')).toEqual([])
    // Signed out everywhere, and no way back in.
    expect((await as(buyer, 'GET', '/api/me')).statusCode).toBe(401)
    expect((await postSignIn(t.app, { email: buyer.user.email, password: TEST_PASSWORD })).statusCode).toBe(
      401,
    )
    // The seller keeps the conversation, with the name replaced.
    const thread = await as(seller, 'GET', `/api/bookings/${booking.id}/messages`)
    expect(thread.statusCode, thread.body).toBe(200)
    const fromBuyer = (thread.json() as { senderName: string; body: string; mine: boolean }[]).filter(
      (m) => !m.mine,
    )
    expect(fromBuyer).toMatchObject([
      { senderName: 'Deleted user', body: 'Thanks, all good!' },
      {
        senderName: 'Deleted user',
        body: 'Call me on [removed] or write to [removed]; refunds to IBAN [removed].',
      },
    ])
    // The payment stays, under the emptied account's id.
    const kept = await t.db.select().from(payments).where(eq(payments.bookingId, booking.id))
    expect(kept).toMatchObject([{ buyerId: buyer.user.id }])
    // No more email: the account is disabled, so mail by account is skipped.
    const [row] = await t.db.select().from(users).where(eq(users.id, buyer.user.id))
    expect(row).toMatchObject({ name: 'Deleted user', image: null, phone: null })
    expect(row?.disabledAt).not.toBeNull()
    expect(row?.erasedAt).not.toBeNull()
    // The audit log names them "Deleted user".
    const admin = await signUp(t.app, { role: 'buyer' })
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, admin.user.id))
    const log = await as(admin, 'GET', '/api/audit-log?kind=account.erase')
    const erased = (log.json().items as { target: string; result: string }[]).filter(
      (i) => i.target === `user:${buyer.user.id}` && i.result === 'success',
    )
    expect(erased).toMatchObject([{ actor_email: 'Deleted user' }])
  })

  it("takes a seller's listings out of the catalogue", async () => {
    const seller = await signUp(t.app, { role: 'seller' })
    const listing = await insertListing(t.db, { sellerId: seller.user.id, isAdvertised: true })
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${listing.id}` })).statusCode).toBe(200)
    expect((await as(seller, 'DELETE', '/api/me', { password: TEST_PASSWORD })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${listing.id}` })).statusCode).toBe(404)
    const [row] = await t.db.select().from(products).where(eq(products.id, listing.id))
    expect(row?.removedAt).not.toBeNull()
  })
})
