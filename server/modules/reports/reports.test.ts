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
