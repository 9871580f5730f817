import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { reports } from '#server/db/schema'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let brand: BrandRow
let buyer: UserRow

beforeAll(async () => {
  t = await createTestApp()
  brand = await createBrand(t.db)
  buyer = await createUser(t.db, { role: 'buyer' })
})

afterAll(async () => {
  await t?.close()
})

const reason = 'The photos show a different laptop'

async function report(productId: string, who: UserRow = buyer) {
  return t.app.inject({
    method: 'POST',
    url: '/api/reports',
    headers: await bearerFor(t.app, who),
    payload: { productId, reason },
  })
}

async function reportsOn(productId: string) {
  return t.db
    .select()
    .from(reports)
    .where(and(eq(reports.productId, productId), eq(reports.reporterId, buyer.id)))
}

describe('POST /api/reports: only a live listing can be reported', () => {
  it('takes a report on a listing that is up', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const product = await createProduct(t.db, { seller, brand, isAdvertised: true })
    const res = await report(product.id)
    expect(res.statusCode).toBe(201)
    expect(await reportsOn(product.id)).toHaveLength(1)
  })

  it('answers 404 for a removed listing, and records nothing', async () => {
    const seller = await createUser(t.db, { role: 'seller' })
    const product = await createProduct(t.db, { seller, brand, removedAt: new Date() })
    const res = await report(product.id)
    expect(res.statusCode).toBe(404)
    expect(ErrorBody.parse(res.json()).error.code).toBe('NOT_FOUND')
    expect(await reportsOn(product.id)).toHaveLength(0)
  })

  it('answers 404 for a listing of a deleted (disabled) seller, which nobody can see, and records nothing', async () => {
    const seller = await createUser(t.db, { role: 'seller', disabled: true })
    const product = await createProduct(t.db, { seller, brand, isAdvertised: true })
    const res = await report(product.id)
    expect(res.statusCode).toBe(404)
    expect(ErrorBody.parse(res.json()).error.code).toBe('NOT_FOUND')
    expect(await reportsOn(product.id)).toHaveLength(0)
  })
})

describe('closing a report tells the reporter', () => {
  it('emails the reporter once when an admin dismisses their report; removing the listing tells each reporter', async () => {
    const admin = await createUser(t.db, { role: 'admin' })
    const seller = await createUser(t.db, { role: 'seller' })
    const other = await createUser(t.db, { role: 'buyer' })
    const kept = await createProduct(t.db, { seller, brand, name: 'Reported Book 13' })
    const res = await report(kept.id)
    expect(res.statusCode, res.body).toBe(201)
    const id = res.json().insertedId
    await t.app.ctx.jobs.drain('email')
    t.outbox.length = 0
    const put = async (url: string) =>
      t.app.inject({ method: 'PUT', url, headers: await bearerFor(t.app, admin) })
    expect((await put(`/api/reports/${id}/dismiss`)).statusCode).toBe(200)
    // Dismissing twice is refused and tells nobody again.
    expect((await put(`/api/reports/${id}/dismiss`)).statusCode).toBe(409)
    await t.app.ctx.jobs.drain('email')
    expect(t.outbox.map((m) => [m.to.includes(buyer.email), m.subject])).toEqual([
      [true, 'Your report of “Reported Book 13”: the listing stays up'],
    ])
    expect(t.outbox[0]?.text).toContain(`You told us: “${reason}”`)
    expect(t.outbox[0]?.text).toContain(`/products/${kept.id}`)
    expect(t.outbox.some((m) => m.to.includes(seller.email))).toBe(false)

    const gone = await createProduct(t.db, { seller, brand, name: 'Reported Book 14' })
    const first = (await report(gone.id)).json().insertedId
    expect((await report(gone.id, other)).statusCode).toBe(201)
    t.outbox.length = 0
    expect((await put(`/api/reports/${first}/remove`)).statusCode).toBe(200)
    await t.app.ctx.jobs.drain('email')
    const told = t.outbox.filter((m) => m.subject.startsWith('Your report of'))
    expect(told).toHaveLength(2)
    expect(told.some((m) => m.to.includes(buyer.email))).toBe(true)
    expect(told.some((m) => m.to.includes(other.email))).toBe(true)
    expect(told[0]?.subject).toBe('Your report of “Reported Book 14”: the listing was removed')
  })
})
