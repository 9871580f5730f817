// The deal after payment, as the demo accounts see it (docs/decisions/0020): the demo buyer has a sale the
// demo seller handed over yesterday, one with an open dispute (on the admin's Disputes page), and a few
// completed ones; the seed's paid MacBook still waits for its handover. Each sale is a sold copy of a demo
// listing (as the market history's are), so the catalogue keeps every listing on sale.
//
// Dates count back from the day the seed runs (never before the demo's reference date), like the market
// history's: a handover dated from the fixed reference date would already be older than AUTO_COMPLETE_DAYS,
// and the auto-completion job would complete it at the first start.

import type { Db } from '#server/db/client'
import { createBooking, createProduct, type createUser } from '#server/db/factories'
import { bookingEvents, disputes, payments } from '#server/db/schema'
import { stableUuid } from './ids'
import { historyEnd } from './market-history'

const DAY = 24 * 60 * 60 * 1000
const HOUR = 60 * 60 * 1000

type UserRow = Awaited<ReturnType<typeof createUser>>
type ProductRow = Awaited<ReturnType<typeof createProduct>>

type DemoDeal = {
  key: string
  /** The demo listing this sale is a copy of. */
  slug: string
  seller: string
  /** Days before today. */
  paidDaysAgo: number
  handedOverDaysAgo?: number
  note?: string
  completedDaysAgo?: number
  problem?: { daysAgo: number; reason: string }
}

export const DEMO_DEALS: readonly DemoDeal[] = [
  {
    key: 'handed-over',
    slug: 'hp-envy-16',
    seller: 'demo-seller',
    paidDaysAgo: 3,
    handedOverDaysAgo: 1,
    note: 'Met at Union Station, Chicago. Charger and original box included.',
  },
  {
    key: 'disputed',
    slug: 'lenovo-thinkpad-t14-gen-3',
    seller: 'demo-seller',
    paidDaysAgo: 8,
    handedOverDaysAgo: 6,
    note: 'Shipped with UPS, tracking 1Z999AA10123456784.',
    problem: {
      daysAgo: 4,
      reason:
        'The battery goes from full to empty in under an hour, and the listing said it lasts a working day. The charger that came with it is not the original either.',
    },
  },
  {
    key: 'completed-1',
    slug: 'dell-latitude-7420',
    seller: 'demo-seller',
    paidDaysAgo: 24,
    handedOverDaysAgo: 22,
    note: 'Handed over at the Lincoln Park library.',
    completedDaysAgo: 21,
  },
  {
    key: 'completed-2',
    slug: 'macbook-air-13-m1',
    seller: 'demo-seller-priya',
    paidDaysAgo: 47,
    handedOverDaysAgo: 45,
    note: 'Shipped with FedEx, tracking 7489 2210 5531.',
    // Nobody answered: it completed by itself AUTO_COMPLETE_DAYS (7) after the handover.
    completedDaysAgo: 38,
  },
  {
    key: 'completed-3',
    slug: 'asus-zenbook-14-oled-ux3402',
    seller: 'demo-seller-marcus',
    paidDaysAgo: 90,
    handedOverDaysAgo: 89,
    completedDaysAgo: 88,
  },
]

/** Writes the demo deals; returns how many bookings it wrote. */
export async function seedDemoDeals(
  tx: Db,
  opts: {
    referenceDate: Date
    users: Map<string, UserRow>
    created: Map<string, ProductRow>
  },
): Promise<number> {
  const today = historyEnd(opts.referenceDate)
  const at = (daysAgo: number, hour = 15) => new Date(today.getTime() - daysAgo * DAY + hour * HOUR)
  const buyer = opts.users.get('demo-buyer')
  if (!buyer) throw new Error('Demo deals need the demo buyer')

  for (const deal of DEMO_DEALS) {
    const source = opts.created.get(deal.slug)
    const seller = opts.users.get(deal.seller)
    if (!source || !seller) throw new Error(`Demo deal ${deal.key} names an unknown listing or seller`)
    const paidAt = at(deal.paidDaysAgo)
    const postedOn = at(deal.paidDaysAgo + 9, 10)
    const product = await createProduct(tx, {
      id: stableUuid(`deal-product:${deal.key}`),
      seller,
      brand: { id: source.brandId },
      name: source.name,
      processor: source.processor,
      ramGb: source.ramGb,
      storageGb: source.storageGb,
      screenInches: source.screenInches,
      condition: source.condition,
      originalPriceCents: source.originalPriceCents,
      resalePriceCents: source.resalePriceCents,
      usesYears: source.usesYears,
      location: source.location,
      description: source.description,
      batteryHealthPct: source.batteryHealthPct,
      batteryCycles: source.batteryCycles,
      isSold: true,
      soldAt: paidAt,
      postedOn,
      renewedAt: postedOn,
      onSaleSince: postedOn,
      updatedAt: paidAt,
      images: source.images.slice(0, 1).map((image) => ({
        id: stableUuid(`deal-image:${deal.key}`),
        cardUrl: image.cardUrl,
        mediumUrl: image.mediumUrl,
        detailUrl: image.detailUrl,
      })),
    })
    const handedOverAt = deal.handedOverDaysAgo === undefined ? null : at(deal.handedOverDaysAgo)
    const completedAt = deal.completedDaysAgo === undefined ? null : at(deal.completedDaysAgo, 18)
    const stage = deal.problem
      ? 'disputed'
      : completedAt
        ? 'completed'
        : handedOverAt
          ? 'handed_over'
          : 'paid'
    const booking = await createBooking(tx, {
      id: stableUuid(`deal-booking:${deal.key}`),
      buyer,
      product,
      phoneNumber: buyer.phone ?? '(312) 555-0187',
      location: 'Chicago, IL',
      isPaid: true,
      paidAt,
      createdAt: new Date(paidAt.getTime() - 2 * HOUR),
      stage,
      handedOverAt,
      handoverNote: deal.note ?? null,
      completedAt,
    })
    await tx.insert(payments).values({
      id: stableUuid(`deal-payment:${deal.key}`),
      bookingId: booking.id,
      productId: product.id,
      buyerId: buyer.id,
      amountCents: booking.priceCents,
      provider: 'test',
      transactionId: `test_demo_deal_${deal.key}`,
      status: 'succeeded',
      createdAt: paidAt,
      updatedAt: paidAt,
    })

    // The history an admin reads with a dispute.
    const events: (typeof bookingEvents.$inferInsert)[] = [
      { bookingId: booking.id, kind: 'paid', actorId: buyer.id, createdAt: paidAt },
    ]
    if (handedOverAt) {
      events.push({
        bookingId: booking.id,
        kind: 'handed_over',
        actorId: seller.id,
        note: deal.note ?? null,
        createdAt: handedOverAt,
      })
    }
    if (completedAt && deal.handedOverDaysAgo !== undefined) {
      const byItself = deal.completedDaysAgo === deal.handedOverDaysAgo - 7
      events.push({
        bookingId: booking.id,
        kind: byItself ? 'auto_completed' : 'received',
        actorId: byItself ? null : buyer.id,
        createdAt: completedAt,
      })
    }
    if (deal.problem) {
      const reportedAt = at(deal.problem.daysAgo, 11)
      events.push({
        bookingId: booking.id,
        kind: 'problem_reported',
        actorId: buyer.id,
        note: deal.problem.reason,
        createdAt: reportedAt,
      })
      await tx.insert(disputes).values({
        id: stableUuid(`deal-dispute:${deal.key}`),
        bookingId: booking.id,
        openedBy: buyer.id,
        reason: deal.problem.reason,
        stageBefore: handedOverAt ? 'handed_over' : 'paid',
        createdAt: reportedAt,
      })
    }
    await tx.insert(bookingEvents).values(events)
  }
  return DEMO_DEALS.length
}
