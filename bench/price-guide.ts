// The price guide's costs on PostgreSQL with many past sales: the daily full rebuild, the per-sale refresh
// inside a payment's transaction, the guide lookup of the selling form, and a page of 24 listings with and
// without each listing's guide. Run: npm run bench:price-guide [-- 20000]  (sales; default 20,000)
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { openDatabase } from '#server/database'
import { rowsOf } from '#server/lib/paging'
import {
  getPriceGuide,
  refreshAllPriceGuides,
  refreshPriceGuideForProduct,
} from '#server/modules/price-guide'

const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const SALES = Number(process.argv[2] ?? 20_000)
const PROCESSORS = [
  'Intel Core i5-1135G7',
  'Intel Core i5-1235U',
  'Intel Core i7-1165G7',
  'Intel Core i7-1255U',
  'AMD Ryzen 5 5600U',
  'AMD Ryzen 7 5800U',
  'Apple M1',
  'Apple M2',
  'Intel Core i7-1360P',
  'Intel Core i9-13900H',
]

const percentile = (values: number[], f: number) =>
  [...values].sort((a, b) => a - b)[Math.floor(f * (values.length - 1))] ?? 0
const ms = (n: number) => `${n.toFixed(1)} ms`

async function timed(times: number, run: () => Promise<unknown>) {
  const spent: number[] = []
  for (let i = 0; i < times; i++) {
    const start = performance.now()
    await run()
    spent.push(performance.now() - start)
  }
  return `p50 ${ms(percentile(spent, 0.5))}, p95 ${ms(percentile(spent, 0.95))}`
}

async function executionMs(db: Parameters<typeof rowsOf>[0], query: string) {
  const plan = await rowsOf<Record<string, string>>(db, sql.raw(`explain (analyze, format text) ${query}`))
  const line = plan.map((r) => Object.values(r)[0] ?? '').find((l) => l.startsWith('Execution Time'))
  return line?.replace('Execution Time: ', '') ?? '?'
}

const name = `lm_bench_guide_${randomUUID().replace(/-/g, '').slice(0, 12)}`
const admin = new pg.Client({ connectionString: ADMIN_URL })
await admin.connect()
await admin.query(`create database ${name}`)
const url = new URL(ADMIN_URL)
url.pathname = `/${name}`
const database = await openDatabase({ driver: 'postgres', url: url.toString() })
const db = database.db
try {
  await db.execute(sql`insert into users (id, name, email, role) values
    ('bench-seller', 'Seller', 'seller@bench.test', 'seller'), ('bench-buyer', 'Buyer', 'buyer@bench.test', 'buyer')`)
  await db.execute(
    sql`insert into brands (name, image_url) select 'Brand ' || g, '/x.svg' from generate_series(1, 8) g`,
  )
  let start = performance.now()
  await db.execute(
    sql.raw(`
    with b as (select id, row_number() over (order by id) as n from brands),
    p as (
      insert into products (name, brand_id, seller_id, resale_price_cents, original_price_cents, description, condition,
        location, uses_years, processor, ram_gb, storage_gb, screen_inches, is_sold, sold_at, posted_on)
      select 'Laptop ' || g, (select id from b where n = 1 + g % 8), 'bench-seller', 30000 + (g * 7919) % 90000, 200000,
        'Sold.', 'Good', 'Austin, TX', 1, (array[${PROCESSORS.map((p) => `'${p}'`).join(',')}])[1 + g % 10],
        (array[8, 16, 32])[1 + g % 3], (array[256, 512, 1024])[1 + (g / 3) % 3], 14, true,
        now() - ((g % 170) || ' days')::interval, now() - interval '200 days'
      from generate_series(1, ${SALES}) g returning id, resale_price_cents, sold_at
    ),
    bk as (
      insert into bookings (product_id, buyer_id, product_name, product_image, price_cents, user_name, email,
        phone_number, location, is_paid, paid_at, stage)
      select id, 'bench-buyer', 'Laptop', '/x.svg', resale_price_cents, 'Buyer', 'buyer@bench.test', '1', 'Chicago, IL',
        true, sold_at, 'completed' from p returning id, product_id, price_cents
    )
    insert into payments (booking_id, product_id, buyer_id, amount_cents, provider, transaction_id, status)
    select id, product_id, 'bench-buyer', price_cents, 'test', 'bench_' || id, 'succeeded' from bk`),
  )
  await db.execute(sql`analyze`)
  console.log(`${SALES.toLocaleString('en-US')} past sales written in ${ms(performance.now() - start)}`)

  start = performance.now()
  const rows = await refreshAllPriceGuides(db)
  console.log(`daily rebuild: ${rows} guide rows in ${ms(performance.now() - start)}`)

  const [sale] = await rowsOf<{ id: string }>(db, sql`select id from products order by id limit 1`)
  console.log(
    `per-sale refresh (in a transaction): ${await timed(50, () => db.transaction((tx) => refreshPriceGuideForProduct(tx, sale?.id ?? '')))}`,
  )

  const [brand] = await rowsOf<{ id: string }>(db, sql`select id from brands order by id limit 1`)
  const query = { brand: brand?.id ?? '', processor: 'Intel Core i7-1165G7', ram_gb: 16, storage_gb: 512 }
  console.log(`GET /api/price-guide lookup: ${await timed(200, () => getPriceGuide(db, query))}`)

  const guide = `(select json_build_object('count', g.sales) from price_guides g where g.brand_id = p.brand_id
    and g.ram_gb = p.ram_gb and g.storage_gb = p.storage_gb and g.sales >= 5
    and ((g.level = 1 and g.processor_key = p.processor_model) or (g.level = 2 and g.processor_key = p.processor_family))
    order by g.level limit 1)`
  console.log(
    `a page of 24 listings: ${await executionMs(db, `select p.id, ${guide} from products p order by p.id limit 24`)} with each guide, ` +
      `${await executionMs(db, 'select p.id from products p order by p.id limit 24')} without`,
  )
} finally {
  await database.close()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.end()
}
