// My Product's tabs: where each of a seller's listings stands, read from the deal's table and the on-sale rule,
// with the counts per state, one state's listings, one listing (the "Sold" email's link), for the seller alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProductList, SellerListingCounts } from '#contract/products'
import { bearerFor } from '#server/test/auth-helpers'
import { dealAt } from '#server/test/deals'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let brand: BrandRow
let seller: UserRow
let buyer: UserRow
const ids: Record<string, string> = {}

async function get(url: string, who: UserRow) {
  return t.app.inject({ method: 'GET', url, headers: await bearerFor(t.app, who) })
}

beforeAll(async () => {
  t = await createTestApp()
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller', name: 'Tab Seller' })
  buyer = await createUser(t.db, { role: 'buyer', name: 'Tab Buyer' })
  ids.onSale = (await createProduct(t.db, { seller, brand, name: 'On sale one' })).id
  ids.inReview = (
    await createProduct(t.db, { seller, brand, name: 'Waiting one', reviewState: 'pending' })
  ).id
  ids.expired = (await createProduct(t.db, { seller, brand, name: 'Expired one', expiredAt: new Date() })).id
  ids.toHandOver = (await dealAt(t, 'paid', { buyer, seller, brand, name: 'Paid one' })).product.id
  ids.completed = (await dealAt(t, 'completed', { buyer, seller, brand, name: 'Completed one' })).product.id
  ids.handedOver = (await dealAt(t, 'handed_over', { buyer, seller, brand, name: 'Handed one' })).product.id
})

afterAll(async () => {
  await t?.close()
})

const q = (extra = '') => `/api/products?email=${encodeURIComponent(seller.email)}${extra}`

describe('My Product by state', () => {
  it('counts the seller’s listings per state: a paid sale needs them, one handed over or completed is sold', async () => {
    const res = await get(`/api/products/states?email=${encodeURIComponent(seller.email)}`, seller)
    expect(res.statusCode, res.body).toBe(200)
    expect(SellerListingCounts.parse(res.json())).toEqual({
      needs_action: 1,
      on_sale: 1,
      in_review: 1,
      sold: 2,
      ended: 1,
      all: 6,
    })
  })

  it('lists one state’s listings, each saying where it stands, and one listing by its id', async () => {
    const names = async (extra: string) =>
      ProductList.parse((await get(q(extra), seller)).json()).map((p) => [p.name, p.listing_state])
    expect(await names('&state=needs_action')).toEqual([['Paid one', 'needs_action']])
    expect(await names('&state=in_review')).toEqual([['Waiting one', 'in_review']])
    expect(await names('&state=on_sale')).toEqual([['On sale one', 'on_sale']])
    expect(await names('&state=ended')).toEqual([['Expired one', 'ended']])
    expect((await names('&state=sold')).sort()).toEqual([
      ['Completed one', 'sold'],
      ['Handed one', 'sold'],
    ])
    expect(await names(`&product=${ids.toHandOver}`)).toEqual([['Paid one', 'needs_action']])
    expect(await names('')).toHaveLength(6)
    const res = await get(q('&state=needs_action'), seller)
    expect(res.headers['x-total-count']).toBe('1')
  })

  it('refuses a bad state or id, and another person’s listings', async () => {
    const bad = await get(q('&state=lost'), seller)
    expect(bad.statusCode).toBe(400)
    expect(bad.json().error.fields).toHaveProperty('state')
    expect((await get(q('&product=nope'), seller)).statusCode).toBe(400)
    expect((await get(q('&state=sold'), buyer)).statusCode).toBe(403)
    expect(
      (await get(`/api/products/states?email=${encodeURIComponent(seller.email)}`, buyer)).statusCode,
    ).toBe(403)
  })

  it('links the seller’s "Sold" email to that sale in My Product', async () => {
    await t.app.ctx.jobs.drain('email')
    t.outbox.length = 0
    const deal = await dealAt(t, 'paid', { buyer, seller, brand, name: 'Linked one' })
    await t.app.ctx.jobs.drain('email')
    const sold = t.outbox.find((m) => m.to.includes(seller.email) && m.subject.startsWith('Sold:'))
    expect(sold?.text).toContain(`/dashboard/myproduct?product=${deal.product.id}`)
    expect(sold?.text).toContain('Open this sale')
  })
})
