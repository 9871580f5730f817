// The payout job at scale, on PostgreSQL: N sellers (default 10,000), each with a test payout account and a
// completed sale (charge and completion posted to the ledger), so each has an available balance. Times one
// payout run (`runPayouts`: a payout, its ledger transaction, its landing job and its email per seller) and a
// second run right after (which must pay nothing), and prints the memory the process used.
// Run: npm run bench:payouts [-- 10000]
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import { openDatabase } from '#server/database'
import { MemoryMediaStorage } from '#server/lib/storage'
import { ledgerIntegrity, postUnpostedSales, rowsOf } from '#server/modules/ledger'
import { runPayouts } from '#server/modules/payouts'

const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const SELLERS = Number(process.argv[2] ?? 10_000)

const name = `lm_bench_payouts_${randomUUID().replace(/-/g, '').slice(0, 12)}`
const admin = new pg.Client({ connectionString: ADMIN_URL })
await admin.connect()
await admin.query(`create database ${name}`)
const url = new URL(ADMIN_URL)
url.pathname = `/${name}`
const database = await openDatabase({ driver: 'postgres', url: url.toString() })
const db = database.db
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url.toString() })
const app = await buildApp({
  config,
  database,
  storage: new MemoryMediaStorage(),
  logger: false,
  mailTransport: { kind: 'smtp', send: async () => ({}), close() {} },
})
await app.ready()
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
let peakRss = 0
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
}, 50)
try {
  let start = performance.now()
  await db.execute(
    sql.raw(`insert into users (id, name, email, role) values ('bench-buyer', 'Buyer', 'buyer@bench.test', 'buyer');
      insert into users (id, name, email, role)
        select 'bench-seller-' || g, 'Seller ' || g, 'seller' || g || '@bench.test', 'seller' from generate_series(1, ${SELLERS}) g;
      insert into brands (name, image_url) values ('Bench', '/x.svg');
      insert into products (name, brand_id, seller_id, resale_price_cents, original_price_cents, description, condition,
          location, uses_years, processor, ram_gb, storage_gb, screen_inches, is_sold)
        select 'Laptop ' || g, (select id from brands limit 1), 'bench-seller-' || g, 20000 + g, 90000, 'A laptop.', 'Good',
          'Austin, TX', 2, 'Intel Core i5-1135G7', 16, 512, 14, true from generate_series(1, ${SELLERS}) g;
      insert into bookings (product_id, buyer_id, product_name, product_image, price_cents, user_name, email, phone_number,
          location, is_paid, paid_at, stage, completed_at)
        select p.id, 'bench-buyer', p.name, '/x.svg', p.resale_price_cents, 'Buyer', 'buyer@bench.test', '555', 'Austin, TX',
          true, now(), 'completed', now() from products p;
      insert into payments (booking_id, product_id, buyer_id, amount_cents, provider, transaction_id, status)
        select b.id, b.product_id, b.buyer_id, b.price_cents, 'test', 'test_bench_' || b.id, 'succeeded' from bookings b;
      insert into payout_accounts (seller_id, provider, status, account_holder, routing_number, account_last4)
        select id, 'test', 'enabled', name, '110000000', '6789' from users where role = 'seller';`),
  )
  const posted = await postUnpostedSales(db, config.payouts.fee)
  console.log(
    `setup: ${SELLERS.toLocaleString('en-US')} sellers with a completed sale, ${posted} sales posted to the ledger in ${seconds(performance.now() - start)}`,
  )

  const before = process.memoryUsage()
  peakRss = before.rss
  start = performance.now()
  const first = await runPayouts(app.ctx)
  const firstMs = performance.now() - start
  start = performance.now()
  const second = await runPayouts(app.ctx)
  const secondMs = performance.now() - start
  const [jobs] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from pgboss.job where name = 'payouts.settle'`,
  )
  console.log(
    `payout run: ${first.payouts.toLocaleString('en-US')} payouts, $${(first.amountCents / 100).toLocaleString('en-US')} in ${seconds(firstMs)}` +
      ` (${(firstMs / Math.max(1, first.payouts)).toFixed(2)} ms a seller); ${jobs?.n} landing jobs queued`,
  )
  console.log(`second run right after: ${second.payouts} payouts in ${seconds(secondMs)}`)
  console.log(`ledger: ${JSON.stringify(await ledgerIntegrity(db))}`)
  const after = process.memoryUsage()
  console.log(
    `memory: rss ${(before.rss / 2 ** 20).toFixed(0)} MB before, peak ${(peakRss / 2 ** 20).toFixed(0)} MB during the runs; heap used ${(before.heapUsed / 2 ** 20).toFixed(0)} → ${(after.heapUsed / 2 ** 20).toFixed(0)} MB`,
  )
} finally {
  clearInterval(sampler)
  await app.close()
  await database.close()
  await admin.query(`drop database ${name} with (force)`)
  await admin.end()
}
