// `npm run bench:scale`: discovery at marketplace scale. Fills a PostgreSQL database with realistic listings by
// SQL, starts the app against it, and measures the discovery calls at 1,000 and 100,000 listings (and 1,000,000
// with `--max 1000000`) at 16 connections; then a booking's conversation and the unread count against
// 1,000,000 messages (`--messages`). See bench/README.md.
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { SERVER_NODE_FLAGS, serverEnv } from '../scripts/server-runtime.mjs'
import { args, argValue } from './args'
import {
  type Draw,
  FRESH_FROM,
  mixedPaths,
  mixedRun,
  pathSource,
  quantile,
  rssMb,
  type SliceFigures,
} from './mixed'

const MAX = Number(argValue('--max') ?? 100_000)
/** Messages to fill for the conversation calls after discovery (0: none). */
const MESSAGES = Number(argValue('--messages') ?? 1_000_000)
/** Only the listings the messages need (the smallest size), without measuring discovery. */
const SKIP_DISCOVERY = args.includes('--skip-discovery')
/** Only the mixed run at each size from 100,000 (not the per-URL table). */
const MIXED_ONLY = args.includes('--mixed-only')
const NO_MIXED = args.includes('--no-mixed')
/** The long tail beside the mixed run: every request a search not asked before, drawn from millions. */
const LONG_TAIL = args.includes('--long-tail')
/** A Zipf run beside it: search k of BENCH_ZIPF_RANKS (default 1,000,000) asked with probability ∝ 1/k. */
const ZIPF = args.includes('--zipf')
/** Without the mixed run's 400 searches (only the long tail and Zipf runs asked for). */
const NO_LIST = args.includes('--no-list')
/**
 * Writes right after a bulk load: the long tail of searches runs while BULK listings are loaded in one statement (an
 * earlier run's are deleted first), then a writer starts at once; the first 10 s are printed apart from the rest.
 */
const AFTER_BULK = args.includes('--after-bulk')
const BULK = Number(argValue('--bulk') ?? 100_000)
/**
 * With --after-bulk: instead of loading BULK new listings, change this many listings on sale in one statement (each
 * repriced by a cent, then back by the next such run): a bulk change of listings the copy holds, which piles its
 * changes past a whole read of it (listing-feed.ts rebaseAt), as 20,000 single changes do over time.
 */
const BULK_UPDATE = argValue('--bulk-update') === undefined ? undefined : Number(argValue('--bulk-update'))
/** With --after-bulk: the writes start once the app's copy holds the bulk load, not the moment it is committed. */
const COPY_FIRST = args.includes('--copy-first')
/** The compiled server (dist/app/main.js) rather than the sources through tsx. */
const COMPILED = args.includes('--compiled')
/** Seconds of each mixed run (quiet, 5 writes/s, 20 writes/s). */
const MIXED_DURATION_S = Number(process.env.BENCH_MIXED_DURATION ?? 40)
const SIZES = [1_000, 100_000, 1_000_000].filter((n) => n <= Math.max(MAX, 1_000))
/** Another checkout of the app to measure (e.g. an earlier commit), with its own node_modules. */
const APP_DIR = path.resolve(argValue('--app-dir') ?? path.resolve(import.meta.dirname, '..'))
const PORT = Number(process.env.BENCH_PORT ?? 4101)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5)
const WARMUP_S = Number(process.env.BENCH_WARMUP ?? 1)
const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')

// Brands, with models as sellers name them and the screen they come with.
const CATALOGUE: [string, [string, number][]][] = [
  [
    'Lenovo',
    [
      ['ThinkPad X1 Carbon Gen 9', 14],
      ['ThinkPad T14', 14],
      ['ThinkPad E15', 15.6],
      ['IdeaPad 5', 15.6],
      ['Legion 5 Pro', 16],
      ['Yoga 7i', 14],
    ],
  ],
  [
    'Dell',
    [
      ['XPS 13 9310', 13.4],
      ['XPS 15 9510', 15.6],
      ['Latitude 5420', 14],
      ['Inspiron 15 3000', 15.6],
      ['Alienware m15 R6', 15.6],
      ['Precision 5560', 15.6],
    ],
  ],
  [
    'HP',
    [
      ['Spectre x360 14', 13.5],
      ['EliteBook 840 G8', 14],
      ['Pavilion 15', 15.6],
      ['Envy 13', 13.3],
      ['Omen 16', 16.1],
      ['ProBook 450 G9', 15.6],
    ],
  ],
  [
    'Apple',
    [
      ['MacBook Air M1', 13.3],
      ['MacBook Air M2', 13.6],
      ['MacBook Pro 14 M1 Pro', 14.2],
      ['MacBook Pro 16 M2 Max', 16.2],
      ['MacBook Pro 13 M2', 13.3],
    ],
  ],
  [
    'ASUS',
    [
      ['ZenBook 14 OLED', 14],
      ['ROG Zephyrus G14', 14],
      ['VivoBook 15', 15.6],
      ['TUF Gaming A15', 15.6],
      ['ExpertBook B9', 14],
    ],
  ],
  [
    'Acer',
    [
      ['Swift 3', 14],
      ['Aspire 5', 15.6],
      ['Nitro 5', 15.6],
      ['Predator Helios 300', 15.6],
    ],
  ],
  [
    'MSI',
    [
      ['GS66 Stealth', 15.6],
      ['Modern 14', 14],
      ['Katana GF66', 15.6],
    ],
  ],
  [
    'Microsoft',
    [
      ['Surface Laptop 4', 13.5],
      ['Surface Laptop Studio', 14.4],
      ['Surface Book 3', 15],
    ],
  ],
  [
    'Samsung',
    [
      ['Galaxy Book2 Pro', 15.6],
      ['Galaxy Book3 360', 13.3],
    ],
  ],
  [
    'Razer',
    [
      ['Blade 15', 15.6],
      ['Blade 14', 14],
    ],
  ],
]
const INTEL_AMD = [
  'Intel Core i3-1115G4',
  'Intel Core i5-1135G7',
  'Intel Core i5-1240P',
  'Intel Core i7-1165G7',
  'Intel Core i7-12700H',
  'Intel Core i9-11900H',
  'AMD Ryzen 3 5300U',
  'AMD Ryzen 5 5600U',
  'AMD Ryzen 7 5800H',
  'AMD Ryzen 9 5900HX',
]
const APPLE_CHIPS = ['Apple M1', 'Apple M2', 'Apple M1 Pro', 'Apple M2 Max']
const CITIES = ['Dhaka', 'Chattogram', 'Sylhet', 'Khulna', 'Rajshahi', 'Barishal', 'Rangpur', 'Mymensingh']
const SELLERS = 2_000

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`
const sqlArray = (xs: string[]) => `array[${xs.map(sqlText).join(',')}]::text[]`

async function seedReference(client: pg.Client) {
  const brandRows = CATALOGUE.map(([b]) => `(${sqlText(b)}, '/images/laptop-placeholder.svg')`).join(',')
  await client.query(`insert into brands (name, image_url) values ${brandRows} on conflict (name) do nothing`)
  // Sellers: one in a hundred disabled (their listings must never show), a third verified.
  await client.query(`
    insert into users (id, name, email, role, verified_at, disabled_at)
    select 'bench-seller-' || i, 'Seller ' || i, 'bench-seller-' || i || '@laptopmarket.test', 'seller',
      case when i % 3 = 0 then now() end, case when i % 100 = 7 then now() end
    from generate_series(1, ${SELLERS}) i
    on conflict (id) do nothing`)
  const models = CATALOGUE.flatMap(([b, ms]) => ms.map(([m, screen]) => ({ b, m, screen })))
  await client.query(
    'create temp table if not exists bench_models (n int, brand text, model text, screen float8)',
  )
  await client.query('truncate bench_models')
  await client.query(
    `insert into bench_models values ${models.map((x, i) => `(${i}, ${sqlText(x.b)}, ${sqlText(x.m)}, ${x.screen})`).join(',')}`,
  )
  return models.length
}

/** The seller's phone on the listings of the `--after-bulk` run's bulk load, which the next such run deletes. */
const BULK_PHONE = '+880 1711 000001'

/**
 * Adds listings `from`..`to` (1-based numbers), all in one statement, with the seller's phone `phone` (the fill's, or
 * BULK_PHONE for a bulk load that a later run takes away again).
 */
async function seedListings(
  client: pg.Client,
  from: number,
  to: number,
  modelCount: number,
  phone = '+880 1711 000000',
) {
  const h = (salt: number) => `abs(hashint4(i * 7 + ${salt}))`
  // A version of the app from before battery evidence (measured with --app-dir) has no battery columns.
  const hasBattery =
    (
      await client.query(
        `select 1 from information_schema.columns where table_name = 'products' and column_name = 'battery_health_pct'`,
      )
    ).rowCount === 1
  const batteryColumns = hasBattery ? ', battery_health_pct, battery_cycles' : ''
  const batteryValues = hasBattery
    ? `,
        -- Battery evidence agreeing with the grade; one listing in five reports none.
        case when r6 % 5 = 0 then null
             when condition = 'Excellent' then 85 + r5 % 16
             when condition = 'Good' then 75 + r5 % 20
             else 50 + r5 % 40 end,
        case when r6 % 5 = 0 then null else r1 % 900 end`
    : ''
  await client.query(`
    with rows as (
      select i, m.brand, m.model, m.screen, b.id as brand_id,
        ${h(1)} % 1000 as r1, ${h(2)} % 1000 as r2, ${h(3)} % 1000 as r3, ${h(4)} % 1000 as r4,
        ${h(5)} % 1000 as r5, ${h(6)} % 1000 as r6
      from generate_series(${from}, ${to}) i
      join bench_models m on m.n = ${h(0)} % ${modelCount}
      join brands b on b.name = m.brand
    ), spec as (
      select *,
        (array[4, 8, 8, 16, 16, 16, 32, 64])[1 + r1 % 8] as ram,
        (array[128, 256, 256, 512, 512, 512, 1024, 2048])[1 + r2 % 8] as storage,
        case when brand = 'Apple' then (${sqlArray(APPLE_CHIPS)})[1 + r3 % ${APPLE_CHIPS.length}]
             else (${sqlArray(INTEL_AMD)})[1 + r3 % ${INTEL_AMD.length}] end as processor,
        (array['Excellent', 'Good', 'Good', 'Fair'])[1 + r4 % 4] as condition,
        15000 + (r5 * 271 + r1) % 285000 as price
      from rows
    ), ins as (
      insert into products (name, brand_id, seller_id, seller_phone, resale_price_cents, original_price_cents,
        description, condition, location, uses_years, processor, ram_gb, storage_gb, screen_inches,
        is_advertised, is_sold, sold_at, removed_at, posted_on${batteryColumns})
      select
        brand || ' ' || model || case r6 % 4 when 0 then ' ' || ram || 'GB/' || storage || 'GB' when 1 then ' - like new' else '' end,
        brand_id, 'bench-seller-' || (1 + r2 * 7 % ${SELLERS}), '${phone}', price, price + 20000 + r4 * 150,
        'Used ' || brand || ' ' || model || ' with ' || processor || ', ' || ram || ' GB RAM and a ' || storage
          || ' GB SSD. ' || (array['Battery holds a full working day.', 'A few light scratches on the lid.',
          'Comes with the original charger and box.', 'Keyboard and trackpad work perfectly.',
          'Screen has no dead pixels; fans are quiet.'])[1 + r5 % 5],
        condition, (${sqlArray(CITIES)})[1 + r6 % ${CITIES.length}], r3 % 6, processor, ram, storage, screen,
        r4 % 50 = 0, r5 % 100 < 8, case when r5 % 100 < 8 then now() end,
        case when r6 % 100 < 3 then now() end,
        now() - make_interval(secs => (r1 * 1000 + r2) * 31.5 + r3)${batteryValues}
      from spec
      returning id
    )
    insert into product_images (product_id, position, card_url, detail_url)
    select id, 1, '/images/laptop-placeholder.svg', '/images/laptop-placeholder.svg' from ins`)
}

type Call = { name: string; paths: string[]; headers?: Record<string, string> }

async function discoveryCalls(client: pg.Client): Promise<Call[]> {
  const brands = (
    await client.query<{ id: string; name: string }>('select id, name from brands order by name')
  ).rows
  const lenovo = brands.find((b) => b.name === 'Lenovo')?.id ?? brands[0]?.id
  const ids = (
    await client.query<{ id: string }>(
      `select p.id from products p join users u on u.id = p.seller_id
       where not p.is_sold and p.removed_at is null and u.disabled_at is null
       order by hashint4(hashtext(p.id::text)) limit 64`,
    )
  ).rows.map((r) => r.id)
  const enc = encodeURIComponent
  return [
    { name: 'browse default', paths: ['/api/search'] },
    {
      name: 'text query',
      paths: [
        'thinkpad',
        'xps 13',
        'macbook air',
        'ryzen 7',
        'zenbook',
        'latitude 5420',
        'legion',
        'spectre',
      ].map((q) => `/api/search?q=${enc(q)}`),
    },
    {
      name: 'misspelt query',
      paths: ['thnkpad', 'x1 carbn', 'macbok air m2', 'zenbok', 'latitud 5420', 'spectr x360'].map(
        (q) => `/api/search?q=${enc(q)}`,
      ),
    },
    {
      name: 'filters + sort',
      paths: brands.map(
        (b) => `/api/search?brand=${b.id}&condition=Good&min_ram_gb=16&max_price=1500&sort=price_asc`,
      ),
    },
    { name: 'page 200', paths: ['/api/search?page=200'] },
    {
      name: 'facets',
      paths: [
        '/api/search?facets=1',
        `/api/search?facets=1&brand=${lenovo}`,
        '/api/search?facets=1&condition=Excellent',
        '/api/search?facets=1&max_price=800',
        '/api/search?facets=1&q=thinkpad',
        '/api/search?facets=1&min_ram_gb=32',
      ],
    },
    {
      name: 'battery filter',
      paths: [
        '/api/search?min_battery_pct=80',
        '/api/search?min_battery_pct=95&sort=price_asc',
        '/api/search?facets=1&min_battery_pct=80',
        `/api/search?brand=${lenovo}&min_battery_pct=90&condition=Excellent`,
        '/api/search?q=thinkpad&min_battery_pct=80',
      ],
    },
    { name: 'brand page', paths: brands.map((b) => `/api/category/${b.id}`) },
    { name: 'product detail', paths: ids.map((id) => `/api/products/${id}`) },
  ]
}

type Measure = { p50: number; p95: number; rps: number; ok: boolean; note: string }

async function measure(call: Call): Promise<Measure> {
  const run = async (duration: number, times?: number[]) => {
    const instance = autocannon({
      url: `http://127.0.0.1:${PORT}`,
      connections: CONNECTIONS,
      duration,
      timeout: 10,
      requests: call.paths.map((p) => ({ method: 'GET', path: p, headers: call.headers })),
    } as never) as ReturnType<typeof autocannon> & NodeJS.EventEmitter
    if (times) instance.on('response', (_c: unknown, _s: number, _b: number, ms: number) => times.push(ms))
    return instance
  }
  await run(WARMUP_S)
  const times: number[] = []
  const result = await run(DURATION_S, times)
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN
  const bad = result.errors + result.timeouts + result.non2xx
  return {
    p50: at(0.5),
    p95: at(0.95),
    rps: result.requests.average,
    ok: bad === 0,
    note: bad ? `${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts` : '',
  }
}

// ---------------------------------------------------------------------------------------------
// Messages: conversations on bookings, filled by SQL, read by two signed-in accounts
// ---------------------------------------------------------------------------------------------

const CONVERSATIONS = 50_000
/** Conversations of the signed-in bench buyer with the signed-in bench seller. */
const MINE = 40
const BENCH_BUYERS = 5_000

/** A bench account signed up through the app, with a bearer token from /api/jwt. */
async function benchAccount(role: 'buyer' | 'seller') {
  const base = `http://127.0.0.1:${PORT}`
  const email = `bench-${role}-${randomBytes(4).toString('hex')}@laptopmarket.test`
  const password = 'bench-pass-42'
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ name: `Bench ${role}`, email, password, role }),
  })
  if (!signUp.ok) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`)
  const { user } = (await signUp.json()) as { user: { id: string } }
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  const jwt = await fetch(`${base}/api/jwt?email=${encodeURIComponent(email)}`, { headers: { cookie } })
  if (!jwt.ok) throw new Error(`token: ${jwt.status} ${await jwt.text()}`)
  const { accessToken } = (await jwt.json()) as { accessToken: string }
  return { id: user.id, authorization: `Bearer ${accessToken}` }
}

/**
 * 50,000 bookings, each a conversation between its buyer and the listing's seller (MINE of them between
 * the two bench accounts), and `total` messages spread evenly over them (20 each at 1,000,000), two seconds
 * apart, one in 97 flagged as asking to pay outside. Every conversation has both read marks: the bench
 * buyer's and the other buyers' a day old, the bench seller's never (so its unread count has work to do).
 */
async function seedMessages(client: pg.Client, total: number, buyerId: string, sellerId: string) {
  await client.query(`
    insert into users (id, name, email, role)
    select 'bench-buyer-' || i, 'Buyer ' || i, 'bench-buyer-' || i || '@laptopmarket.test', 'buyer'
    from generate_series(1, ${BENCH_BUYERS}) i
    on conflict (id) do nothing`)
  await client.query(
    `
    with p as (
      select id, name, resale_price_cents, row_number() over (order by id) as n
      from products where removed_at is null limit ${CONVERSATIONS}
    )
    insert into bookings (product_id, buyer_id, product_name, product_image, price_cents, user_name, email,
      phone_number, location, created_at)
    select id, case when n <= ${MINE} then $1 else 'bench-buyer-' || (1 + n % ${BENCH_BUYERS}) end, name,
      '/images/laptop-placeholder.svg', resale_price_cents, 'Bench buyer', 'bench@laptopmarket.test',
      '+880 1711 000000', 'Dhaka', now() - interval '30 days'
    from p
    on conflict do nothing`,
    [buyerId],
  )
  await client.query(
    `update products set seller_id = $2 where id in (select product_id from bookings where buyer_id = $1)`,
    [buyerId, sellerId],
  )
  await client.query('drop table if exists bench_conv')
  await client.query(`
    create temp table bench_conv as
    select (row_number() over (order by b.id) - 1)::int as k, b.id as booking_id, b.buyer_id, p.seller_id
    from bookings b join products p on p.id = b.product_id`)
  const conversations = (await client.query<{ n: number }>('select count(*)::int as n from bench_conv'))
    .rows[0]?.n as number
  await client.query(
    `
    insert into message_reads (booking_id, user_id, last_read_at)
    select booking_id, buyer_id, now() - interval '1 day' from bench_conv
    union all
    select booking_id, seller_id, case when seller_id = $1 then 'epoch'::timestamptz else now() - interval '1 day' end
    from bench_conv
    on conflict do nothing`,
    [sellerId],
  )
  for (let from = 1; from <= total; from += 250_000) {
    const to = Math.min(total, from + 249_999)
    await client.query(`
      insert into messages (booking_id, sender_id, body, off_platform, created_at)
      select c.booking_id, case when i % 2 = 0 then c.buyer_id else c.seller_id end,
        'Message ' || i || ': is the battery original, and could we meet on Saturday near the station?',
        i % 97 = 0, now() - make_interval(secs => (${total} - i) * 2)
      from generate_series(${from}, ${to}) i
      join bench_conv c on c.k = i % ${conversations}`)
  }
  await client.query('vacuum analyze messages')
  await client.query('vacuum analyze message_reads')
  await client.query('vacuum analyze bookings')
  const mine = (
    await client.query<{ id: string }>('select id from bookings where buyer_id = $1 order by id', [buyerId])
  ).rows.map((r) => r.id)
  return mine
}

function printTable(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ')
  console.log(line(head))
  console.log(widths.map((w) => '-'.repeat(w)).join('  '))
  for (const row of rows) console.log(line(row))
}

async function waitForHealth(child: ChildProcess, port = PORT) {
  // BENCH_START_TIMEOUT: seconds an instance has to answer (a machine shared with other work can need far more).
  const until = Date.now() + Number(process.env.BENCH_START_TIMEOUT ?? 120) * 1000
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`)
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`)
      // 503 while its copy of the listings loads still means it is up.
      if (res.ok || res.status === 503) return
    } catch {}
    await new Promise((r) => setTimeout(r, 300))
  }
  throw new Error('the app did not answer /api/health in time (BENCH_START_TIMEOUT)')
}

/**
 * Waits until the app's copy of the listings' facts (decision 0031) is at the database's version, so the calls are
 * measured as the instance answers once loaded, not while its first load runs. Returns the load's time as the app
 * reports it in /api/health, or undefined for a version of the app that keeps no copy (or does not say).
 */
async function waitForCopy(client: pg.Client, port = PORT): Promise<number | undefined> {
  const version = await client
    .query<{ v: string }>('select version::text as v from listing_counts_version where id')
    .then((r) => r.rows[0]?.v)
    .catch(() => undefined)
  if (version === undefined) return undefined
  const until = Date.now() + 600_000
  while (Date.now() < until) {
    // A search is what starts a load when the copy is behind.
    await fetch(`http://127.0.0.1:${port}/api/search`).then((r) => r.arrayBuffer())
    const health = (await (await fetch(`http://127.0.0.1:${port}/api/health`)).json()) as {
      status: string
      listing_copy?: { version: string; load_ms: number } | null
    }
    if (!('listing_copy' in health)) return undefined
    // At the version read above or later (a writer may have moved it on), and ready: a balancer sends an instance
    // searches once its health says `ok` (after its warm-up, decision 0146).
    if (
      health.listing_copy &&
      BigInt(health.listing_copy.version) >= BigInt(version) &&
      health.status !== 'loading'
    )
      return health.listing_copy.load_ms
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error("the app's copy of the listings did not load within 10 minutes")
}

/** The mixed run at one size: quiet, then a writer at 5 and at 20 writes a second (bench/mixed.ts). */
async function mixed(client: pg.Client, dbUrl: string, app: ChildProcess, size: number, secondPid?: number) {
  const brandIds = (await client.query<{ id: string }>('select id from brands order by name')).rows.map(
    (r) => r.id,
  )
  const lenovo = (await client.query<{ id: string }>(`select id from brands where name = 'Lenovo'`)).rows[0]
    ?.id
  // BENCH_MIXED_SEARCHES: how many different searches the run draws from (default 400, each then asked about 40 times
  // in a 20 s run; 100000 makes nearly every request a search the instance has not seen).
  const paths = mixedPaths(brandIds, Number(process.env.BENCH_MIXED_SEARCHES ?? 400))
  const draws: { name: string; draw: Draw }[] = [
    ...(NO_LIST && (LONG_TAIL || ZIPF)
      ? []
      : [{ name: `${paths.length} searches`, draw: { kind: 'list', paths } as Draw }]),
    ...(LONG_TAIL ? [{ name: 'long tail', draw: { kind: 'long-tail' } as Draw }] : []),
    ...(ZIPF
      ? [
          {
            name: 'zipf',
            draw: { kind: 'zipf', ranks: Number(process.env.BENCH_ZIPF_RANKS ?? 1_000_000) } as Draw,
          },
        ]
      : []),
  ]
  console.log(
    `\nMixed run at ${size.toLocaleString('en-US')} listings: ${draws.map((d) => d.name).join(', ')}, in random order, ${CONNECTIONS} connections, ${MIXED_DURATION_S} s each after ${WARMUP_S} s warm-up`,
  )
  const rows: string[][] = []
  // BENCH_MIXED_RATES: the writer's rates to run (writes a second; 0 is the quiet run), default 0,5,20.
  const rates = (process.env.BENCH_MIXED_RATES ?? '0,5,20').split(',').map(Number)
  for (const { name, draw } of draws) {
    for (const perSecond of rates) {
      const source = pathSource(draw, brandIds, perSecond + 3)
      const m = await mixedRun({
        url: `http://127.0.0.1:${PORT}`,
        probeUrl: `http://127.0.0.1:${PORT + 1}`,
        dbUrl,
        source,
        connections: CONNECTIONS,
        durationS: MIXED_DURATION_S,
        warmupS: WARMUP_S,
        perSecond,
        appPid: app.pid,
        secondPid,
        sellerId: 'bench-seller-1',
        brandId: lenovo ?? (brandIds[0] as string),
        // BENCH_FIRST_S: the CPU of each run's first seconds printed apart from the rest's.
        firstS: process.env.BENCH_FIRST_S ? Number(process.env.BENCH_FIRST_S) : undefined,
      })
      rows.push([
        name,
        perSecond ? `${perSecond} writes/s` : 'quiet',
        m.p50.toFixed(1),
        m.p95.toFixed(1),
        m.p975.toFixed(1),
        m.p99.toFixed(1),
        Math.round(m.rps).toLocaleString('en-US'),
        String(m.bad),
        `${m.rssStartMb.toFixed(0)} → ${m.rssMb.toFixed(0)} (peak ${m.rssPeakMb.toFixed(0)})`,
        source.distinct().toLocaleString('en-US'),
        perSecond ? String(m.writes) : '',
        perSecond ? `${quantile(m.fresh, 0.5).toFixed(0)} / ${quantile(m.fresh, 0.99).toFixed(0)}` : '',
        perSecond ? `${m.fresh.length} (${m.staleAtEnd} never seen)` : '',
        loadAverage(),
      ])
    }
  }
  printTable(
    [
      'searches',
      'writer',
      'p50 ms',
      'p95 ms',
      'p97.5 ms',
      'p99 ms',
      'req/s',
      'bad',
      'RSS MB',
      'distinct',
      'writes',
      'fresh p50/p99 ms',
      'fresh n',
      'load average after',
    ],
    rows,
  )
  console.log(`RSS of the second instance: ${rssMb(secondPid).toFixed(0)} MB; load average: ${loadAverage()}`)
  // The highest RSS each process of an instance reached (a rebase holds the old copy and the new one for a moment).
  console.log(
    `Peak RSS since start: first instance ${rssMb(app.pid, 'VmHWM').toFixed(0)} MB, second ${rssMb(secondPid, 'VmHWM').toFixed(0)} MB`,
  )
}

/** The `--after-bulk` run: see AFTER_BULK. */
async function afterBulk(client: pg.Client, dbUrl: string, app: ChildProcess, modelCount: number) {
  const loadedBefore = await waitForCopy(client)
  // An earlier run's bulk load alone: the fill's listings have the same sellers.
  const deleted = await client.query(
    `delete from products where seller_id like 'bench-seller-%' and seller_phone = $1`,
    [BULK_PHONE],
  )
  if (deleted.rowCount) {
    await client.query('vacuum analyze products')
    await client.query('vacuum analyze product_images')
    // So many listings gone pile the copy's changes past a whole read of it again: the run waits for that read to
    // land (its load time changes), so that what it measures is the bulk load alone.
    const waited = Date.now()
    const until = waited + 600_000
    for (;;) {
      const health = (await (await fetch(`http://127.0.0.1:${PORT}/api/health`)).json()) as {
        listing_copy?: { load_ms: number } | null
      }
      if (health.listing_copy?.load_ms !== loadedBefore || Date.now() > until) break
      await new Promise((r) => setTimeout(r, 250))
    }
    console.log(
      `An earlier run's ${deleted.rowCount.toLocaleString('en-US')} listings deleted; the copy read whole again ${((Date.now() - waited) / 1000).toFixed(1)} s later`,
    )
  }
  await waitForCopy(client)
  const brandIds = (await client.query<{ id: string }>('select id from brands order by name')).rows.map(
    (r) => r.id,
  )
  const lenovo = (await client.query<{ id: string }>(`select id from brands where name = 'Lenovo'`)).rows[0]
    ?.id
  const perSecond = Number(process.env.BENCH_MIXED_RATES ?? 20)
  // BENCH_FIRST_S: the first slice's seconds, printed apart.
  const firstS = Number(process.env.BENCH_FIRST_S ?? 10)
  console.log(
    `\nLong tail while ${BULK_UPDATE === undefined ? `${BULK.toLocaleString('en-US')} listings are loaded` : `${BULK_UPDATE.toLocaleString('en-US')} listings are repriced`} in one statement${BULK_UPDATE === undefined ? ' (and vacuum analyze)' : ''}, then ${perSecond} writes/s at once: ${CONNECTIONS} connections, ${MIXED_DURATION_S} s measured from the first write; load average ${loadAverage()}`,
  )
  const url = `http://127.0.0.1:${PORT}`
  let copyHeld: Promise<number> | undefined
  /** When the bulk load's statement returned (performance.now()). */
  let committedAt = Number.POSITIVE_INFINITY
  const m = await mixedRun({
    url,
    // Freshness on the same instance (no second one here).
    probeUrl: url,
    dbUrl,
    source: pathSource({ kind: 'long-tail' }, brandIds, perSecond + 3),
    connections: CONNECTIONS,
    durationS: MIXED_DURATION_S,
    warmupS: WARMUP_S,
    perSecond,
    appPid: app.pid,
    sellerId: 'bench-seller-1',
    brandId: lenovo ?? (brandIds[0] as string),
    firstS,
    beforeWrites: async () => {
      const started = Date.now()
      if (BULK_UPDATE === undefined) await seedListings(client, 1, BULK, modelCount, BULK_PHONE)
      // A cent up on odd runs and down on even ones (by the first listing's price): prices stay where the fill put them.
      else
        await client.query(
          `update products set resale_price_cents = resale_price_cents + case when (select resale_price_cents % 2
             from products where id = (select id from products where not is_sold and removed_at is null order by id limit 1)) = 0
             then 1 else -1 end
           where id in (select id from products where not is_sold and removed_at is null order by id limit $1)`,
          [BULK_UPDATE],
        )
      const loaded = Date.now()
      committedAt = performance.now()
      // When the copy holds the bulk load (searches answer without it until then), watched meanwhile.
      const bulkVersion = (
        await client.query<{ v: string }>('select version::text as v from listing_counts_version where id')
      ).rows[0]?.v as string
      copyHeld = (async () => {
        for (;;) {
          const health = (await (await fetch(`${url}/api/health`)).json()) as {
            listing_copy?: { version: string } | null
          }
          if (health.listing_copy && BigInt(health.listing_copy.version) >= BigInt(bulkVersion))
            return (Date.now() - loaded) / 1000
          await new Promise((r) => setTimeout(r, 100))
        }
      })()
      // A bulk change leaves the table's statistics as they were: the writes start at once, beside the whole read of the
      // copy that it starts.
      if (BULK_UPDATE === undefined) {
        await client.query('vacuum analyze products')
        await client.query('vacuum analyze product_images')
        await client.query('analyze users')
      }
      const health = (await (await fetch(`${url}/api/health`)).json()) as {
        listing_copy?: { version: string } | null
      }
      const version = (
        await client.query<{ v: string }>('select version::text as v from listing_counts_version where id')
      ).rows[0]?.v
      console.log(
        `  loaded in ${((loaded - started) / 1000).toFixed(1)} s, vacuum analyze ${((Date.now() - loaded) / 1000).toFixed(1)} s; the copy at the writes' start: ${health.listing_copy?.version === version ? 'current' : `behind (${health.listing_copy?.version} < ${version})`}`,
      )
      if (COPY_FIRST) {
        const waited = Date.now()
        await waitForCopy(client)
        console.log(`  the copy held the bulk load ${((Date.now() - waited) / 1000).toFixed(1)} s later`)
      }
    },
  })
  const row = (name: string, f: SliceFigures) => [
    name,
    f.p50.toFixed(1),
    f.p95.toFixed(1),
    f.p975.toFixed(1),
    f.p99.toFixed(1),
    Math.round(f.rps).toLocaleString('en-US'),
    f.requests.toLocaleString('en-US'),
  ]
  const first = m.first as NonNullable<typeof m.first>
  printTable(
    ['after the bulk load', 'p50 ms', 'p95 ms', 'p97.5 ms', 'p99 ms', 'req/s', 'answers'],
    [
      row(`first ${firstS} s of writes`, first.head),
      row(`${firstS}–${MIXED_DURATION_S} s`, first.rest),
      row('whole run', { ...m, rps: m.rps }),
    ],
  )
  console.log(`The copy held the bulk load ${(await copyHeld)?.toFixed(1)} s after it committed`)
  // The searches answered from the bulk commit to the writes' start: the feed's application of the commit (which the
  // searches wait for) falls in these seconds, with the bench's own vacuum analyze.
  const meanwhile = m.meanwhile.times.filter((_, i) => (m.meanwhile.at[i] as number) >= committedAt)
  if (meanwhile.length > 0)
    console.log(
      `Searches answered from the bulk commit to the writes' start: ${meanwhile.length.toLocaleString('en-US')}, p50 ${quantile(meanwhile, 0.5).toFixed(1)} p99 ${quantile(meanwhile, 0.99).toFixed(1)} max ${Math.max(...meanwhile).toFixed(1)} ms`,
    )
  console.log(
    `${m.bad} bad answers; ${m.writes} writes, fresh p50 / p99 ${quantile(m.fresh, 0.5).toFixed(0)} / ${quantile(m.fresh, 0.99).toFixed(0)} ms; RSS ${m.rssStartMb.toFixed(0)} → ${m.rssMb.toFixed(0)} MB; load average ${loadAverage()}`,
  )
}

async function main() {
  console.log(`Discovery at scale — node ${process.version}, ${os.cpus().length} CPUs; app: ${APP_DIR}`)
  console.log(
    `${CONNECTIONS} connections, ${DURATION_S} s per call after ${WARMUP_S} s warm-up; sizes ${SIZES}`,
  )
  console.log(`Load average at start: ${loadAverage()}`)

  let dbUrl = process.env.DATABASE_URL
  let dropDb: (() => Promise<void>) | undefined
  if (!dbUrl) {
    const name = `bench_scale_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: ADMIN_URL })
    await admin.connect()
    await admin.query(`create database ${name}`)
    await admin.end()
    dbUrl = ADMIN_URL.replace(/\/[^/]*$/, `/${name}`)
    dropDb = async () => {
      const a = new pg.Client({ connectionString: ADMIN_URL })
      await a.connect()
      await a.query(`drop database if exists ${name} with (force)`)
      await a.end()
    }
    console.log(`Throwaway database ${name} (dropped at the end)`)
  }
  const dataDirs: string[] = []
  const startApp = (port: number) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'laptop-market-scale-'))
    dataDirs.push(dataDir)
    // BENCH_APP_ARGS: node flags for the app (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), after the server's own
    // (scripts/server-runtime.mjs: what every way of starting an instance gives it).
    const nodeArgs = [...SERVER_NODE_FLAGS, ...(process.env.BENCH_APP_ARGS?.split(' ').filter(Boolean) ?? [])]
    // --compiled: the compiled server (dist/app/main.js, `npm run build` first), as production and `npm start` run it;
    // else the sources through tsx (no build needed, but every worker thread compiles its modules as it starts).
    const [command, entry] = COMPILED
      ? [path.join(APP_DIR, 'node_modules/.bin/node'), 'dist/app/main.js']
      : [path.join(APP_DIR, 'node_modules/.bin/tsx'), 'server/main.ts']
    if (COMPILED && !fs.existsSync(path.join(APP_DIR, entry)))
      throw new Error(`${path.join(APP_DIR, entry)} is missing: run \`npm run build\` there first`)
    return spawn(command, [...nodeArgs, entry], {
      cwd: APP_DIR,
      env: {
        ...serverEnv(),
        DATABASE_URL: dbUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        AUTH_SECRET: randomBytes(32).toString('hex'),
        DATA_DIR: dataDir,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
        SEED_DEMO: 'never',
        // Every answer comes from the database, not from the per-instance cache of public lists.
        PUBLIC_CACHE_TTL_MS: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        SHUTDOWN_DELAY_MS: '0',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    })
  }
  const stopApp = async (app: ChildProcess | undefined) => {
    if (!app || app.exitCode !== null) return
    app.kill('SIGTERM')
    // Time to write a CPU profile (BENCH_APP_ARGS=--cpu-prof) as it exits.
    const until = Date.now() + (process.env.BENCH_APP_ARGS ? 15_000 : 1_500)
    while (app.exitCode === null && Date.now() < until) await new Promise((r) => setTimeout(r, 100))
    if (app.exitCode === null) app.kill('SIGKILL')
  }
  const child = startApp(PORT)
  /** The second instance, on PORT + 1, started cold after each fill: its load time, and the freshness probe. */
  let second: ChildProcess | undefined
  const client = new pg.Client({ connectionString: dbUrl })
  const results = new Map<number, Map<string, Measure>>()
  try {
    await waitForHealth(child)
    await client.connect()
    const modelCount = await seedReference(client)
    if (AFTER_BULK) {
      await afterBulk(client, dbUrl, child, modelCount)
      return
    }
    // With DATABASE_URL naming a database an earlier run filled, its listings count: only the missing are added.
    let have = process.env.DATABASE_URL
      ? Number(
          (
            await client.query<{ n: string }>(
              `select count(*)::text as n from products where resale_price_cents < ${FRESH_FROM * 100}`,
            )
          ).rows[0]?.n ?? 0,
        )
      : 0
    // A database filled earlier is measured at its own size only (the smaller sizes are not there to measure).
    const sizes = SIZES.filter((size, i) => size >= have || (SIZES[i + 1] ?? Infinity) > have)
    for (const size of SKIP_DISCOVERY ? [] : sizes) {
      const started = Date.now()
      for (let from = have + 1; from <= size; from += 250_000) {
        await seedListings(client, from, Math.min(size, from + 249_999), modelCount)
      }
      if (have < size) {
        await client.query('vacuum analyze products')
        await client.query('vacuum analyze product_images')
        await client.query('analyze users')
      }
      console.log(
        `\n${size.toLocaleString('en-US')} listings: ${Math.max(0, size - have).toLocaleString('en-US')} added in ${((Date.now() - started) / 1000).toFixed(1)} s (with vacuum analyze)`,
      )
      have = Math.max(have, size)
      const loadMs = await waitForCopy(client)
      if (loadMs !== undefined) {
        console.log(
          `The app's copy of the listings' facts loaded in ${(loadMs / 1000).toFixed(1)} s before measuring`,
        )
      }
      if (!NO_MIXED && size >= 100_000) {
        await stopApp(second)
        const coldStart = Date.now()
        second = startApp(PORT + 1)
        await waitForHealth(second, PORT + 1)
        const upMs = Date.now() - coldStart
        await waitForCopy(client, PORT + 1)
        console.log(
          `A second instance, started cold: answering in ${(upMs / 1000).toFixed(1)} s, its copy loaded and warm ${((Date.now() - coldStart) / 1000).toFixed(1)} s after start`,
        )
        await mixed(client, dbUrl, child, size, second.pid)
      }
      if (MIXED_ONLY) continue
      const calls = await discoveryCalls(client)
      const bySize = new Map<string, Measure>()
      results.set(size, bySize)
      const rows: string[][] = []
      for (const call of calls) {
        const m = await measure(call)
        bySize.set(call.name, m)
        rows.push([
          call.name,
          m.p50.toFixed(1),
          m.p95.toFixed(1),
          Math.round(m.rps).toLocaleString('en-US'),
          m.ok ? '' : m.note,
        ])
      }
      printTable(['call', 'p50 ms', 'p95 ms', 'req/s', 'problems'], rows)
      console.log(`Load average: ${loadAverage()}`)
    }
    const small = results.get(SIZES[0] ?? 1_000)
    for (const size of SIZES.slice(1)) {
      const big = results.get(size)
      if (!small || !big) continue
      console.log(
        `\np95 at ${size.toLocaleString('en-US')} / p95 at 1,000 (target at 100,000: p95 <= 50 ms, ratio <= 1.5)`,
      )
      printTable(
        ['call', 'p95 1k', `p95 ${size / 1000}k`, 'ratio', 'p95 <= 50', 'ratio <= 1.5'],
        [...big].map(([name, m]) => {
          const s = small.get(name)
          const ratio = s ? m.p95 / s.p95 : Number.NaN
          const valid = m.ok && s?.ok
          return [
            name,
            s ? s.p95.toFixed(1) : '-',
            m.p95.toFixed(1),
            valid ? ratio.toFixed(2) : 'n/a',
            valid ? (m.p95 <= 50 ? 'pass' : 'FAIL') : 'n/a',
            valid ? (ratio <= 1.5 ? 'pass' : 'FAIL') : 'n/a',
          ]
        }),
      )
    }
    if (MESSAGES > 0) {
      // Enough listings for the conversations (the discovery sizes already added at least 1,000).
      if (have < CONVERSATIONS) {
        await seedListings(client, have + 1, CONVERSATIONS, modelCount)
        await client.query('vacuum analyze products')
      }
      const buyer = await benchAccount('buyer')
      const seller = await benchAccount('seller')
      const started = Date.now()
      const mine = await seedMessages(client, MESSAGES, buyer.id, seller.id)
      console.log(
        `\n${MESSAGES.toLocaleString('en-US')} messages in ${CONVERSATIONS.toLocaleString('en-US')} conversations: added in ${((Date.now() - started) / 1000).toFixed(1)} s (with vacuum analyze)`,
      )
      const rows: string[][] = []
      for (const call of [
        {
          name: 'message thread',
          paths: mine.map((id) => `/api/bookings/${id}/messages`),
          headers: { authorization: buyer.authorization },
        },
        {
          name: 'unread count',
          paths: ['/api/messages/unread'],
          headers: { authorization: seller.authorization },
        },
      ] satisfies Call[]) {
        const m = await measure(call)
        rows.push([
          call.name,
          m.p50.toFixed(1),
          m.p95.toFixed(1),
          Math.round(m.rps).toLocaleString('en-US'),
          m.ok ? (m.p95 <= 50 ? 'pass' : 'FAIL') : 'n/a',
          m.ok ? '' : m.note,
        ])
      }
      printTable(['call', 'p50 ms', 'p95 ms', 'req/s', 'p95 <= 50', 'problems'], rows)
    }
    console.log(`\nLoad average at end: ${loadAverage()}`)
  } finally {
    await client.end().catch(() => {})
    await Promise.all([stopApp(child), stopApp(second)])
    await dropDb?.()
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true })
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err)
    process.exit(1)
  },
)
