// A listing's `images` column (migration 0057) is kept from product_images by triggers: every way photos are added,
// reordered, changed, moved or removed leaves it equal to the photos in order, and a listing response reads it.

import { eq, isNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Product } from '#contract/products'
import type { AppContext } from '#server/app-context'
import { productImages, products } from '#server/db/schema'
import { createBrand, createProduct, createUser } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { fillListingImages, registerListingImagesJobs } from './listing-images'

let t: TestApp
let listing: (images?: { cardUrl: string; detailUrl: string; mediumUrl?: string }[]) => Promise<string>

beforeAll(async () => {
  t = await createTestApp()
  const seller = await createUser(t.db, { role: 'seller' })
  const brand = await createBrand(t.db, { name: 'Framework' })
  listing = async (images) => (await createProduct(t.db, { seller, brand, ...(images && { images }) })).id
})
afterAll(() => t?.close())

const photo = (n: number, medium = true) => ({
  cardUrl: `/media/${n}-card.jpg`,
  detailUrl: `/media/${n}-detail.jpg`,
  ...(medium && { mediumUrl: `/media/${n}-medium.jpg` }),
})
const shown = (n: number, medium = true) => ({
  card: `/media/${n}-card.jpg`,
  ...(medium && { medium: `/media/${n}-medium.jpg` }),
  detail: `/media/${n}-detail.jpg`,
})

const column = async (id: string) =>
  (await t.db.select({ images: products.images }).from(products).where(eq(products.id, id)))[0]?.images

describe("a listing's images column", () => {
  it('holds the photos in order as they are added, without a medium size a photo lacks', async () => {
    const id = await listing([photo(1), photo(2, false)])
    expect(await column(id)).toEqual([shown(1), shown(2, false)])
    await t.db.insert(productImages).values({ productId: id, position: 3, ...photo(3) })
    expect(await column(id)).toEqual([shown(1), shown(2, false), shown(3)])
  })

  it('follows a reorder, a changed photo and a removal', async () => {
    const id = await listing([photo(1), photo(2), photo(3)])
    // Swapped through a free position, as the unique (listing, position) index requires.
    await t.db
      .update(productImages)
      .set({ position: 9 })
      .where(eq(productImages.cardUrl, '/media/1-card.jpg'))
    await t.db
      .update(productImages)
      .set({ position: sql`${productImages.position} - 1` })
      .where(eq(productImages.productId, id))
    expect((await column(id))?.map((p) => p.card)).toEqual([
      '/media/2-card.jpg',
      '/media/3-card.jpg',
      '/media/1-card.jpg',
    ])
    await t.db
      .update(productImages)
      .set({ mediumUrl: null })
      .where(eq(productImages.cardUrl, '/media/3-card.jpg'))
    expect((await column(id))?.[1]).toEqual(shown(3, false))
    await t.db.delete(productImages).where(eq(productImages.productId, id))
    expect(await column(id)).toEqual([])
  })

  it('follows a photo moved from one listing to another: both change', async () => {
    const from = await listing([photo(41), photo(42)])
    const to = await listing([photo(43)])
    await t.db
      .update(productImages)
      .set({ productId: to, position: 2 })
      .where(eq(productImages.cardUrl, '/media/42-card.jpg'))
    expect(await column(from)).toEqual([shown(41)])
    expect(await column(to)).toEqual([shown(43), shown(42)])
  })

  it("is what a listing response gives as its photos, for every listing one statement's photos touch", async () => {
    const ids = [await listing([]), await listing([])]
    await t.db
      .insert(productImages)
      .values(ids.map((productId, i) => ({ productId, position: 1, ...photo(50 + i) })))
    for (const [i, id] of ids.entries()) {
      const res = await t.app.inject({ method: 'GET', url: `/api/products/${id}` })
      expect(res.statusCode).toBe(200)
      const product = Product.parse(res.json())
      expect(product.images).toEqual([shown(50 + i)])
      expect(product.img).toBe(`/media/${50 + i}-card.jpg`)
    }
  })

  it('for listings from before the column: read as made now, then written by the fill job in batches', async () => {
    const ids = [await listing([photo(61), photo(62, false)]), await listing([photo(63)]), await listing([])]
    // As migration 0057 leaves every listing it found: no images written yet.
    await t.db.update(products).set({ images: null })
    const response = async (id: string) =>
      Product.parse((await t.app.inject({ method: 'GET', url: `/api/products/${id}` })).json()).images
    expect(await response(ids[0] as string)).toEqual([shown(61), shown(62, false)])
    expect(await response(ids[2] as string)).toEqual([])
    await t.app.ctx.jobs.send('listings.images-fill', {})
    expect(await t.app.ctx.jobs.drain('listings.images-fill')).toBe(1)
    expect(await t.db.select({ id: products.id }).from(products).where(isNull(products.images))).toEqual([])
    expect(await column(ids[0] as string)).toEqual([shown(61), shown(62, false)])
    expect(await column(ids[1] as string)).toEqual([shown(63)])
    expect(await column(ids[2] as string)).toEqual([])
    // Nothing left: one statement, nothing written.
    expect(await fillListingImages(t.db, 1_000)).toEqual({ filled: 0, done: true })
  })

  it('stops between batches once its time is spent, and the next attempt goes on', async () => {
    await t.db.update(products).set({ images: null })
    const unfilled = async () => (await t.db.select().from(products).where(isNull(products.images))).length
    const before = await unfilled()
    expect(before).toBeGreaterThan(2)
    expect(await fillListingImages(t.db, 0, 2)).toEqual({ filled: 2, done: false })
    expect(await unfilled()).toBe(before - 2)
    expect(await fillListingImages(t.db, 60_000, 2)).toEqual({ filled: before - 2, done: true })
    expect(await unfilled()).toBe(0)
  })

  it('as a job, queues its next attempt while listings are left and none once all are filled', async () => {
    await t.db.update(products).set({ images: null })
    const unfilled = async () => (await t.db.select().from(products).where(isNull(products.images))).length
    const before = await unfilled()
    // The queue as the job sees it: what it is given to run, and what it queues.
    let attempt: (() => Promise<void>) | undefined
    const queued: string[] = []
    const jobs = {
      work: (_name: string, handler: () => Promise<void>) => {
        attempt = handler
      },
      send: async (name: string) => {
        queued.push(name)
      },
      sendAtStart: (name: string) => queued.push(`${name} at start`),
    } as unknown as AppContext['jobs']
    registerListingImagesJobs({ db: t.db, jobs }, { budgetMs: 0, batchSize: 2 })
    expect(queued).toEqual(['listings.images-fill at start'])
    // Each attempt queued runs in turn, as the queue would run it.
    let ran = 0
    while (ran < queued.length && ran < 100) {
      await attempt?.()
      ran++
    }
    expect(await unfilled()).toBe(0)
    // Two listings an attempt, each spending its budget: the last finds fewer than a batch and queues nothing.
    expect(ran).toBe(Math.floor(before / 2) + 1)
    expect(queued.slice(1)).toEqual(Array(ran - 1).fill('listings.images-fill'))
  })
})
