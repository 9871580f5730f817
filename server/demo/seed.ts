import { asc, sql } from 'drizzle-orm'
import { batteryPctInText } from '#contract/products'
import type { Db } from '#server/db/client'
import { createBooking, createBrand, createPayment, createProduct, createUser } from '#server/db/factories'
import { hashPassword } from '#server/db/password-hash'
import { brands, users as usersTable } from '#server/db/schema'
import type { MediaStorage } from '#server/lib/storage'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, DEMO_SELLERS } from './accounts'
import { brandLogoKey, brandLogoWebp, DEMO_BRANDS } from './brands'
import { seedDemoDeals } from './deals'
import { seedDemoFavourites } from './favourites'
import { hashString } from './geometry'
import { stableUuid } from './ids'
import { seedMarketHistory } from './market-history'
import { seedDemoMessages } from './messages'
import { planPhotos, writeDemoPhotos } from './photos'
import { DEMO_PRODUCTS } from './products'
import { seedDemoReviews } from './reviews'

/**
 * Every demo date counts back from this fixed moment, so the seed writes the same rows every time.
 * Listings were posted over the 60 days before it.
 */
export const DEMO_REFERENCE_DATE = new Date('2026-11-15T12:00:00.000Z')

const DAY = 24 * 60 * 60 * 1000
// Any constant will do: it only has to be the same for every process that might seed.
const SEED_LOCK_KEY = 7_314_002

export type DemoSummary = {
  brands: number
  products: number
  images: number
  users: number
  bookings: number
  /** The demo accounts made (all share the public demo password); none when the database had accounts. */
  accounts: string[]
}

/** Where the seed says what it did: creating demo accounts is always a warning, naming them. */
export type SeedLog = { info(msg: string): void; warn(obj: object, msg: string): void }

/**
 * Fills an empty database: the demo brands always (reference data), and the demo listings, sales and one
 * account per role only when the database holds no account at all.
 */
export async function seedDemoIfEmpty(db: Db, storage: MediaStorage, log: SeedLog): Promise<boolean> {
  return (await seedDemo(db, storage, log)) !== undefined
}

async function hasBrands(db: Db): Promise<boolean> {
  const rows = await db.select({ id: brands.id }).from(brands).limit(1)
  return rows.length > 0
}

/** Any account at all: an admin made with `npm run admin` before the first start counts. */
async function hasAccounts(db: Db): Promise<boolean> {
  const rows = await db.select({ id: usersTable.id }).from(usersTable).limit(1)
  return rows.length > 0
}

/**
 * Seeds when the database has no brands and says what it wrote; undefined when it was not empty. A
 * database that already holds an account gets the brands alone: demo accounts with a public password must
 * never sit beside real ones. Pictures go to storage first (their keys are fixed, so a retry overwrites
 * them); the rows go in one transaction, so a crash leaves an empty database that is seeded again on the
 * next start.
 */
export async function seedDemo(
  db: Db,
  storage: MediaStorage,
  log: SeedLog,
): Promise<DemoSummary | undefined> {
  if (await hasBrands(db)) return undefined
  const withDemoAccounts = !(await hasAccounts(db))

  const listings = DEMO_PRODUCTS.map((product, index) => {
    const id = stableUuid(`product:${product.slug}`)
    return { product, index, id, photos: planPhotos(id, index) }
  })

  // Hashing is deliberately slow, so all demo accounts share one hash of the one demo password.
  const [passwordHash, images] = await Promise.all([
    withDemoAccounts ? hashPassword(DEMO_PASSWORD) : '',
    withDemoAccounts ? writeDemoPhotos(storage, listings) : 0,
    Promise.all(DEMO_BRANDS.map(async (b) => storage.put(brandLogoKey(b), await brandLogoWebp(b)))),
  ])

  const summary = await db.transaction(async (tx): Promise<DemoSummary | undefined> => {
    // Several app instances may start at once against one PostgreSQL: one seeds, the others wait
    // here and then find the brands.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`)
    if (await hasBrands(tx)) return undefined
    const accountsCreatedAt = new Date(DEMO_REFERENCE_DATE.getTime() - 120 * DAY)
    if (!withDemoAccounts || (await hasAccounts(tx))) {
      await seedBrands(tx, storage, accountsCreatedAt)
      return { brands: DEMO_BRANDS.length, products: 0, images: 0, users: 0, bookings: 0, accounts: [] }
    }

    const people = [...DEMO_ACCOUNTS, ...DEMO_SELLERS]
    const users = new Map<string, Awaited<ReturnType<typeof createUser>>>()
    for (const [i, person] of people.entries()) {
      const createdAt = new Date(accountsCreatedAt.getTime() + i * 3 * DAY)
      users.set(
        person.id,
        await createUser(tx, {
          id: person.id,
          role: person.role,
          name: person.name,
          email: person.email,
          phone: person.phone,
          verified: person.verified ? new Date(createdAt.getTime() + 2 * DAY) : false,
          createdAt,
          passwordHash,
        }),
      )
    }

    const brandIds = await seedBrands(tx, storage, accountsCreatedAt)

    const created = new Map<string, Awaited<ReturnType<typeof createProduct>>>()
    for (const { product, id, photos } of listings) {
      const seller = users.get(product.seller)
      const brandId = brandIds.get(product.brand)
      if (!seller || !brandId)
        throw new Error(`Demo listing ${product.slug} names an unknown seller or brand`)
      const postedOn = postedOnFor(product.slug)
      const row = await createProduct(tx, {
        id,
        seller,
        brand: { id: brandId },
        name: product.name,
        processor: product.processor,
        ramGb: product.ramGb,
        storageGb: product.storageGb,
        screenInches: product.screenInches,
        condition: product.condition,
        originalPriceCents: product.originalPriceCents,
        resalePriceCents: product.resalePriceCents,
        usesYears: product.usesYears,
        location: product.location,
        description: product.description,
        ...demoBattery(product.slug, product.condition, product.description),
        isAdvertised: product.advertised ?? false,
        isSold: product.sold ?? false,
        soldAt: product.sold ? soldAtFor(postedOn) : null,
        postedOn,
        onSaleSince: postedOn,
        images: photos.map((p) => ({
          id: stableUuid(`image:${p.cardKey}`),
          cardUrl: storage.url(p.cardKey),
          mediumUrl: storage.url(p.mediumKey),
          detailUrl: storage.url(p.detailKey),
        })),
      })
      created.set(product.slug, row)
    }

    const bookings =
      (await seedDemoBookings(tx, users, created)) +
      (await seedDemoDeals(tx, { referenceDate: DEMO_REFERENCE_DATE, users, created }))
    // Past sales (the price guide) and page views (the seller's dashboard).
    await seedMarketHistory(tx, {
      referenceDate: DEMO_REFERENCE_DATE,
      listings,
      created,
      users,
      sellerIds: DEMO_SELLERS.map((s) => s.id),
      createUser,
      passwordHash,
    })
    // Reviews of the completed sales (the deals' and the market history's).
    await seedDemoReviews(tx)
    const demoBuyer = users.get('demo-buyer')
    if (demoBuyer) {
      await seedDemoFavourites(tx, {
        buyerId: demoBuyer.id,
        referenceDate: DEMO_REFERENCE_DATE,
        created,
        brandIds,
      })
    }
    const made = await tx
      .select({ email: usersTable.email })
      .from(usersTable)
      .orderBy(asc(usersTable.createdAt))
    return {
      brands: DEMO_BRANDS.length,
      products: created.size,
      images,
      users: made.length,
      bookings,
      accounts: made.map((u) => u.email),
    }
  })
  if (summary && summary.accounts.length > 0) {
    const roles = people().map((p) => `${p.email} (${p.role})`)
    log.warn(
      { accounts: summary.accounts },
      `Filled the empty database with demo data. Created ${summary.accounts.length} demo accounts whose password is public ("${DEMO_PASSWORD}"), among them ${roles.join(', ')}. Never use this database for real people: start from an empty one with SEED_DEMO=never.`,
    )
  } else if (summary) {
    log.info(
      'Added the demo brands; the database already holds accounts, so no demo accounts, listings or sales were created',
    )
  }
  return summary
}

function people() {
  return DEMO_ACCOUNTS.map((a) => ({ email: a.email, role: a.role }))
}

async function seedBrands(tx: Db, storage: MediaStorage, createdAt: Date): Promise<Map<string, string>> {
  const brandIds = new Map<string, string>()
  for (const brand of DEMO_BRANDS) {
    const row = await createBrand(tx, {
      id: stableUuid(`brand:${brand.slug}`),
      name: brand.name,
      imageUrl: storage.url(brandLogoKey(brand)),
      createdAt,
    })
    brandIds.set(brand.slug, row.id)
  }
  return brandIds
}

/**
 * Battery evidence that agrees with each grade and with the listing's own words: the figure its description
 * names (and its cycles, when named). A listing whose description names none reports none one time in six,
 * as real sellers sometimes do not.
 */
function demoBattery(slug: string, condition: 'Excellent' | 'Good' | 'Fair', description: string) {
  const h = hashString(`battery:${slug}`)
  const named = batteryPctInText(description)
  const cycles = /(\d+)\s+cycles/i.exec(description)
  if (named !== null) {
    return { batteryHealthPct: named, batteryCycles: cycles ? Number(cycles[1]) : 40 + ((h >>> 5) % 560) }
  }
  if (h % 6 === 0) return { batteryHealthPct: null, batteryCycles: null }
  const [low, span] = condition === 'Excellent' ? [86, 13] : condition === 'Good' ? [76, 12] : [62, 18]
  return { batteryHealthPct: low + (h % span), batteryCycles: 40 + ((h >>> 5) % 560) }
}

/** Spread over the 60 days before the reference date, at daytime hours, in no brand order. */
function postedOnFor(slug: string): Date {
  const h = hashString(slug)
  const daysAgo = 1 + (h % 59)
  const minutes = 9 * 60 + ((h >>> 8) % (12 * 60))
  const day = new Date(DEMO_REFERENCE_DATE.getTime() - daysAgo * DAY)
  day.setUTCHours(0, minutes, 0, 0)
  return day
}

function soldAtFor(postedOn: Date): Date {
  const soldAt = new Date(postedOn.getTime() + 6 * DAY)
  return soldAt < DEMO_REFERENCE_DATE ? soldAt : DEMO_REFERENCE_DATE
}

/**
 * The demo buyer's orders show every state: one paid (that laptop is now sold), one waiting for
 * payment, and one whose laptop went to someone else.
 */
async function seedDemoBookings(
  tx: Db,
  users: Map<string, Awaited<ReturnType<typeof createUser>>>,
  products: Map<string, Awaited<ReturnType<typeof createProduct>>>,
): Promise<number> {
  const buyer = users.get('demo-buyer')
  const paidFor = products.get('macbook-pro-13-m2')
  const waiting = products.get('dell-xps-13-9310')
  const soldElsewhere = products.get('hp-omen-16')
  if (!buyer || !paidFor || !waiting || !soldElsewhere) throw new Error('Demo bookings name unknown rows')
  const details = { phoneNumber: buyer.phone ?? '(312) 555-0187', location: 'Chicago, IL' }

  const soldAt = paidFor.soldAt ?? DEMO_REFERENCE_DATE
  const paid = await createBooking(tx, {
    id: stableUuid('booking:paid'),
    buyer,
    product: paidFor,
    ...details,
    isPaid: true,
    paidAt: soldAt,
    createdAt: new Date(soldAt.getTime() - DAY),
  })
  await createPayment(tx, {
    id: stableUuid('payment:paid'),
    booking: paid,
    provider: 'test',
    transactionId: 'test_demo_macbook_pro_13_m2',
    status: 'succeeded',
    createdAt: soldAt,
    updatedAt: soldAt,
  })
  await seedDemoMessages(tx, {
    bookingId: paid.id,
    buyerId: buyer.id,
    sellerId: paidFor.sellerId,
    paidAt: soldAt,
  })
  await createBooking(tx, {
    id: stableUuid('booking:waiting'),
    buyer,
    product: waiting,
    ...details,
    createdAt: new Date(DEMO_REFERENCE_DATE.getTime() - 2 * DAY),
  })
  const lostAt = soldElsewhere.soldAt ?? DEMO_REFERENCE_DATE
  await createBooking(tx, {
    id: stableUuid('booking:sold-elsewhere'),
    buyer,
    product: soldElsewhere,
    ...details,
    createdAt: new Date(lostAt.getTime() - 2 * DAY),
  })
  return 3
}
