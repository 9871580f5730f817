// Saved-search matching at scale, on PostgreSQL: N saved searches (default 100,000, of 20,000 users) with a realistic
// mix of filters and alerts, then M new listings (default 1,000) posted at once; times the `alerts.match` job from
// the first event to every alert queued (alert items written, instant emails on the email queue). Target: ≤ 30 s.
// Run: npm run bench:alerts [-- 100000 1000]
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import { openDatabase } from '#server/database'
import { rowsOf } from '#server/lib/paging'
import { MemoryMediaStorage } from '#server/lib/storage'
import { runAlertMatching } from '#server/modules/alerts'

const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const SEARCHES = Number(process.argv[2] ?? 100_000)
const LISTINGS = Number(process.argv[3] ?? 1_000)
const USERS = Math.max(1, Math.round(SEARCHES / 5))
const BRANDS = 40
/** Model and kind words; each listing's name holds two of them, a search's text one. */
const WORDS = [
  'thinkpad',
  'xps',
  'zenbook',
  'macbook',
  'latitude',
  'spectre',
  'envy',
  'pavilion',
  'inspiron',
  'vostro',
  'yoga',
  'ideapad',
  'legion',
  'omen',
  'victus',
  'elitebook',
  'probook',
  'swift',
  'aspire',
  'nitro',
  'predator',
  'surface',
  'galaxy',
  'gram',
  'vivobook',
  'rog',
  'tuf',
  'zephyrus',
  'blade',
  'stealth',
  'katana',
  'modern',
  'prestige',
  'creator',
  'chromebook',
  'precision',
  'alienware',
  'carbon',
  'flip',
  'duo',
]
const name = `lm_bench_alerts_${randomUUID().replace(/-/g, '').slice(0, 12)}`
const admin = new pg.Client({ connectionString: ADMIN_URL })
await admin.connect()
await admin.query(`create database ${name}`)
const url = new URL(ADMIN_URL)
url.pathname = `/${name}`
const database = await openDatabase({ driver: 'postgres', url: url.toString() })
const db = database.db
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url.toString() })
const outbox: unknown[] = []
const app = await buildApp({
  config,
  database,
  storage: new MemoryMediaStorage(),
  logger: false,
  mailTransport: {
    kind: 'smtp',
    send: async (e) => {
      outbox.push(e)
      return {}
    },
    close() {},
  },
})
await app.ready()
try {
  let start = performance.now()
  await db.execute(
    sql`insert into users (id, name, email, role) values ('bench-seller', 'Seller', 'seller@bench.test', 'seller')`,
  )
  await db.execute(
    sql.raw(`insert into users (id, name, email, role)
      select 'bench-user-' || g, 'Buyer ' || g, 'buyer' || g || '@bench.test', 'buyer' from generate_series(1, ${USERS}) g`),
  )
  await db.execute(
    sql.raw(
      `insert into brands (name, image_url) select 'Brand ' || lpad(g::text, 2, '0'), '/x.svg' from generate_series(1, ${BRANDS}) g`,
    ),
  )
  const brandIds = (await rowsOf<{ id: string }>(db, sql`select id from brands order by name`)).map(
    (b) => b.id,
  )

  // The searches, as buyers write them: most name a brand (one of 40), and a search without a brand has words; many
  // set a price window, some RAM, a condition, a battery floor. Each matches about 0.5% of new listings.
  const rows: string[] = []
  let seed = 42
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T
  for (let i = 0; i < SEARCHES; i++) {
    const f: Record<string, unknown> = {}
    let text: string | null = null
    const withBrand = rand() < 0.9
    if (withBrand) f.brand = rand() < 0.8 ? [pick(brandIds)] : [pick(brandIds), pick(brandIds)]
    if (rand() < 0.6) {
      f.min_price = 200 + Math.floor(rand() * 12) * 100
      f.max_price = (f.min_price as number) + 300
    }
    if (rand() < 0.4) f.ram = [pick([8, 16, 32])]
    if (rand() < 0.2) f.condition = [pick(['Excellent', 'Good', 'Fair'])]
    if (rand() < 0.1) f.min_battery_pct = 80
    if (!withBrand || rand() < 0.4) {
      const word = pick(WORDS)
      f.q = word
      text = rand() < 0.5 ? word : `${word}:*`
    }
    const alert = rand() < 0.6 ? 'instant' : rand() < 0.75 ? 'daily' : 'off'
    const json = JSON.stringify(f).replace(/'/g, "''")
    rows.push(
      `('bench-user-${1 + (i % USERS)}', 'bench-${i}', '${json}'::jsonb, ${text ? `'${text}'` : 'null'}, '${alert}')`,
    )
  }
  for (let i = 0; i < rows.length; i += 5000) {
    await db.execute(
      sql.raw(
        `insert into saved_searches (user_id, query, filters, text_query, alert) values ${rows.slice(i, i + 5000).join(',')}`,
      ),
    )
  }
  console.log(
    `${SEARCHES.toLocaleString('en-US')} saved searches of ${USERS.toLocaleString('en-US')} users in ${((performance.now() - start) / 1000).toFixed(1)} s`,
  )

  // The new listings, posted at once, each an event for the matcher (as createProduct writes it).
  start = performance.now()
  await db.execute(
    sql.raw(`
    with b as (select id, row_number() over (order by name) as n from brands),
    p as (
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents, description,
        condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches, battery_health_pct)
      select initcap((array[${WORDS.map((n) => `'${n}'`).join(',')}])[1 + g % ${WORDS.length}]) || ' '
          || initcap((array[${WORDS.map((n) => `'${n}'`).join(',')}])[1 + (g * 7) % ${WORDS.length}]) || ' ' || g,
        (select id from b where n = 1 + (g * 13) % ${BRANDS}), 'bench-seller', '1', 20000 + (g * 7919) % 150000, 250000,
        'A good laptop.', (array['Excellent', 'Good', 'Fair'])[1 + g % 3], 'Austin, TX', 1,
        (array['Intel Core i5-1235U', 'Intel Core i7-1165G7', 'AMD Ryzen 7 5800U', 'Apple M2'])[1 + g % 4],
        (array[8, 16, 32])[1 + g % 3], (array[256, 512, 1024])[1 + (g / 3) % 3], 14, 70 + g % 31
      from generate_series(1, ${LISTINGS}) g returning id
    )
    insert into alert_events (kind, product_id) select 'listed', id from p`),
  )
  console.log(
    `${LISTINGS.toLocaleString('en-US')} new listings posted in ${((performance.now() - start) / 1000).toFixed(1)} s`,
  )

  start = performance.now()
  const report = await runAlertMatching(app.ctx)
  const seconds = (performance.now() - start) / 1000
  const [items] = await rowsOf<{ n: number; instant: number; daily: number }>(
    db,
    sql`select count(*)::int as n, count(*) filter (where delivery = 'instant')::int as instant,
      count(*) filter (where delivery = 'daily')::int as daily from alert_items`,
  )
  const [emails] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from pgboss.job where name = 'email' and state = 'created'`,
  )
  console.log(
    `matched ${LISTINGS.toLocaleString('en-US')} new listings against ${SEARCHES.toLocaleString('en-US')} saved searches in ${seconds.toFixed(1)} s` +
      ` (target ≤ 30 s): ${report.matches.toLocaleString('en-US')} matches (${items?.instant} instant, ${items?.daily} daily),` +
      ` ${emails?.n.toLocaleString('en-US')} instant emails queued`,
  )
  const p = report.phases
  console.log(
    `phases: load the searches ${(p.load / 1000).toFixed(1)} s, match in memory ${(p.match / 1000).toFixed(1)} s, write the alerts ${(p.write / 1000).toFixed(1)} s, queue the emails ${(p.queue / 1000).toFixed(1)} s`,
  )
  const memory = process.memoryUsage()
  console.log(
    `memory: rss ${(memory.rss / 2 ** 20).toFixed(0)} MB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)} MB`,
  )
} finally {
  await app.close()
  await database.close()
  await admin.query(`drop database ${name} with (force)`)
  await admin.end()
}
