// The demo's market history: laptops sold over the last months (so the price guide and its badges show)
// and the page views of the demo seller's listings (so the seller's dashboard draws its charts).
// Dates count back from the day the seed runs (never before the demo's reference date), so a demo started
// any day shows the last 30 days and the 180-day guide; everything else about it is fixed.

import type { Db } from '#server/db/client'
import type { createProduct, createUser } from '#server/db/factories'
import { bookings, payments, productImages, products, productViews } from '#server/db/schema'
import { refreshAllPriceGuides } from '#server/modules/price-guide'
import type { DemoAccount } from './accounts'
import { DEMO_PASSWORD } from './accounts'
import { hashString, seededRandom } from './geometry'
import { stableUuid } from './ids'
import type { DemoProduct } from './products'

const DAY = 24 * 60 * 60 * 1000

/** Buyers of the past sales; they can sign in with the demo password like every demo account. */
export const DEMO_PAST_BUYERS = [
  {
    id: 'demo-buyer-sam',
    role: 'buyer',
    name: 'Sam Whitfield',
    email: 'sam.whitfield@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(312) 555-0161',
    verified: false,
  },
  {
    id: 'demo-buyer-noor',
    role: 'buyer',
    name: 'Noor Haddad',
    email: 'noor.haddad@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(773) 555-0128',
    verified: false,
  },
  {
    id: 'demo-buyer-lucas',
    role: 'buyer',
    name: 'Lucas Ferreira',
    email: 'lucas.ferreira@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(415) 555-0190',
    verified: false,
  },
] as const satisfies readonly DemoAccount[]

type UserRow = Awaited<ReturnType<typeof createUser>>
type ProductRow = Awaited<ReturnType<typeof createProduct>>

/** Midnight UTC of the day the history ends: today, or the reference date when that is later. */
export function historyEnd(referenceDate: Date, now = new Date()): Date {
  const end = new Date(Math.max(now.getTime(), referenceDate.getTime()))
  end.setUTCHours(0, 0, 0, 0)
  return end
}

/**
 * Where a listing's price should land against its guide: most get "Great price" or "Fair price", some
 * nothing (priced above what such laptops sold for). The centre of the past sales follows from it.
 */
function salesCentre(product: DemoProduct): number {
  const pick = hashString(`verdict:${product.slug}`) % 5
  if (pick <= 1) return product.resalePriceCents * 1.14 // at or below the 25th percentile
  if (pick <= 3) return product.resalePriceCents * 1.0 // between the quartiles
  return product.resalePriceCents * 0.82 // above the 75th percentile
}

export async function seedMarketHistory(
  tx: Db,
  opts: {
    referenceDate: Date
    listings: readonly { product: DemoProduct; id: string }[]
    created: Map<string, ProductRow>
    users: Map<string, UserRow>
    sellerIds: readonly string[]
    createUser: typeof createUser
    passwordHash: string
  },
): Promise<{ sales: number; views: number }> {
  const end = historyEnd(opts.referenceDate)
  const buyers: UserRow[] = []
  for (const [i, person] of DEMO_PAST_BUYERS.entries()) {
    buyers.push(
      await opts.createUser(tx, {
        id: person.id,
        role: person.role,
        name: person.name,
        email: person.email,
        phone: person.phone,
        createdAt: new Date(opts.referenceDate.getTime() - (200 - i) * DAY),
        passwordHash: opts.passwordHash,
      }),
    )
  }

  const saleProducts: (typeof products.$inferInsert)[] = []
  const saleImages: (typeof productImages.$inferInsert)[] = []
  const saleBookings: (typeof bookings.$inferInsert)[] = []
  const salePayments: (typeof payments.$inferInsert)[] = []
  let n = 0
  for (const { product } of opts.listings) {
    const source = opts.created.get(product.slug)
    if (!source || product.sold || hashString(`history:${product.slug}`) % 5 === 0) continue
    const random = seededRandom(`sales:${product.slug}`)
    const count = 5 + Math.floor(random() * 4)
    const centre = salesCentre(product)
    for (let k = 0; k < count; k++) {
      n += 1
      const id = stableUuid(`past-sale:${product.slug}:${k}`)
      // Spread over the 170 days before the end; about a third in the last 30.
      const daysAgo = random() < 0.35 ? 1 + Math.floor(random() * 29) : 30 + Math.floor(random() * 140)
      const paidAt = new Date(
        end.getTime() - daysAgo * DAY + (10 + Math.floor(random() * 9)) * 60 * 60 * 1000,
      )
      const postedOn = new Date(paidAt.getTime() - (4 + Math.floor(random() * 20)) * DAY)
      const priceCents = Math.min(
        Math.round((centre * (0.9 + random() * 0.2)) / 500) * 500,
        product.originalPriceCents - 1000,
      )
      // The demo seller's share sold lately, so that dashboard shows bookings and money.
      const sellerId =
        daysAgo < 30 && n % 5 === 0 ? 'demo-seller' : (opts.sellerIds[n % opts.sellerIds.length] as string)
      const buyer = buyers[n % buyers.length] as UserRow
      const image = source.images[0]
      saleProducts.push({
        id,
        name: product.name,
        brandId: source.brandId,
        sellerId,
        sellerPhone: source.sellerPhone,
        resalePriceCents: priceCents,
        originalPriceCents: product.originalPriceCents,
        description: product.description,
        condition: product.condition,
        location: product.location,
        usesYears: product.usesYears,
        processor: product.processor,
        ramGb: product.ramGb,
        storageGb: product.storageGb,
        screenInches: product.screenInches,
        // The same words as the listing, so the same battery figure: a description never contradicts it.
        batteryHealthPct: source.batteryHealthPct,
        batteryCycles: source.batteryCycles,
        isSold: true,
        soldAt: paidAt,
        postedOn,
        renewedAt: postedOn,
        onSaleSince: postedOn,
        updatedAt: paidAt,
      })
      if (image) {
        saleImages.push({
          productId: id,
          position: 1,
          cardUrl: image.cardUrl,
          mediumUrl: image.mediumUrl,
          detailUrl: image.detailUrl,
          createdAt: postedOn,
        })
      }
      const bookingId = stableUuid(`past-sale-booking:${product.slug}:${k}`)
      saleBookings.push({
        id: bookingId,
        productId: id,
        buyerId: buyer.id,
        productName: product.name,
        productImage: image?.cardUrl ?? '',
        priceCents,
        userName: buyer.name,
        email: buyer.email,
        phoneNumber: buyer.phone ?? '(312) 555-0100',
        location: 'Chicago, IL',
        isPaid: true,
        paidAt,
        createdAt: new Date(paidAt.getTime() - DAY),
        // Older sales are completed (the money released); recent ones are still on their way.
        ...(daysAgo > 12
          ? {
              stage: 'completed' as const,
              handedOverAt: new Date(paidAt.getTime() + 2 * DAY),
              completedAt: new Date(paidAt.getTime() + 4 * DAY),
            }
          : daysAgo > 4
            ? { stage: 'handed_over' as const, handedOverAt: new Date(paidAt.getTime() + 2 * DAY) }
            : { stage: 'paid' as const }),
      })
      salePayments.push({
        id: stableUuid(`past-sale-payment:${product.slug}:${k}`),
        bookingId,
        productId: id,
        buyerId: buyer.id,
        amountCents: priceCents,
        provider: 'test',
        transactionId: `test_demo_history_${product.slug}_${k}`,
        status: 'succeeded',
        createdAt: paidAt,
        updatedAt: paidAt,
      })
    }
  }
  if (saleProducts.length > 0) {
    await tx.insert(products).values(saleProducts)
    await tx.insert(productImages).values(saleImages)
    await tx.insert(bookings).values(saleBookings)
    await tx.insert(payments).values(salePayments)
  }
  await refreshAllPriceGuides(tx)

  // Page views of the demo seller's listings, a row per listing per day for the last 30 days.
  const views: (typeof productViews.$inferInsert)[] = []
  for (const { product, id } of opts.listings) {
    if (product.seller !== 'demo-seller') continue
    const random = seededRandom(`views:${product.slug}`)
    const base = 3 + Math.floor(random() * 10)
    for (let d = 0; d < 30; d++) {
      const day = new Date(end.getTime() - d * DAY)
      const weekend = day.getUTCDay() === 0 || day.getUTCDay() === 6 ? 1.5 : 1
      views.push({
        productId: id,
        day: day.toISOString().slice(0, 10),
        views: Math.round(base * weekend * (0.5 + random())),
      })
    }
  }
  if (views.length > 0) await tx.insert(productViews).values(views)
  return { sales: saleProducts.length, views: views.length }
}
