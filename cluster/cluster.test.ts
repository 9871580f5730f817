// `npm run test:cluster`: two app instances on one PostgreSQL and one Redis, behind nginx balancing round
// robin with deploy/nginx.conf. Needs nginx, and PostgreSQL and Redis on 127.0.0.1 (CLUSTER_DATABASE_URL,
// CLUSTER_REDIS_URL to point elsewhere).
import pg from 'pg'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feeCents } from '../contract/fees'
import { HANDOVER_CHECK_KEYS } from '../contract/handover'
import { type LocalSmtp, startLocalSmtp } from '../server/test/local-smtp'
import { type Account, CARD, call, LISTING, signIn, signUp as signUpUnconfirmed } from './client'
import { type Cluster, startCluster } from './harness'

const BASE_PORT = Number(process.env.CLUSTER_BASE_PORT ?? 4410)

let cluster: Cluster
let smtp: LocalSmtp
let db: pg.Client
let brandId: string
let A: string
let B: string
let LB: string

/** Signs up and confirms the address (a hold needs a confirmed email), as the emailed link would. */
async function signUp(...args: Parameters<typeof signUpUnconfirmed>): Promise<Account> {
  const account = await signUpUnconfirmed(...args)
  await db.query('update users set email_verified = true where id = $1', [account.id])
  return account
}

beforeAll(async () => {
  // Both instances send email through one local SMTP server, each running the email worker.
  smtp = await startLocalSmtp()
  cluster = await startCluster({
    basePort: BASE_PORT,
    // Long enough that only the message between instances can explain a list changing within a second.
    // New sellers' listings here are the traffic, not the review queue's subject.
    env: {
      PUBLIC_CACHE_TTL_MS: '60000',
      RATE_LIMIT_PER_MINUTE: '0',
      LISTING_REVIEW_FIRST: '0',
      // Every account here signs up from one address, and the admin in these tests has no authenticator.
      SIGNUPS_PER_ADDRESS_PER_HOUR: '0',
      LIVE_HOLDS_PER_ADDRESS: '1000',
      OPEN_BOOKINGS_PER_BUYER: '1000',
      UPLOADS_PER_MINUTE: '0',
      REQUIRE_ADMIN_TWO_FACTOR: 'false',
      SMTP_URL: smtp.url,
    },
  })
  A = cluster.instances[0]?.url ?? ''
  B = cluster.instances[1]?.url ?? ''
  LB = cluster.balancerUrl
  db = new pg.Client({ connectionString: cluster.databaseUrl })
  await db.connect()
  const brand = await db.query<{ id: string }>(
    `insert into brands (name, image_url) values ('Cluster Brand', 'https://images.example.com/brand.png') returning id`,
  )
  brandId = brand.rows[0]?.id ?? ''
}, 120_000)

afterAll(async () => {
  await db?.end()
  await cluster?.close()
  await smtp?.stop()
}, 60_000)

async function listLaptop(seller: Account, base: string, name: string, advertise = false): Promise<string> {
  const res = await call(base, 'POST', '/api/products', {
    cookie: seller.cookie,
    origin: LB,
    body: { ...LISTING, name, category_id: brandId },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const id = (res.body as { insertedId: string }).insertedId
  if (advertise) {
    expect(
      (await call(base, 'PUT', `/api/advertise/product/${id}`, { cookie: seller.cookie, origin: LB })).status,
    ).toBe(200)
  }
  return id
}

describe('two instances behind nginx', () => {
  it('signs up through the balancer and stays signed in whichever instance answers', async () => {
    const buyer = await signUp(LB, LB, 'buyer')
    for (const base of [A, B, LB, LB, LB, LB]) {
      const res = await call(base, 'GET', '/api/auth/get-session', { cookie: buyer.cookie })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ user: { email: buyer.email } })
      expect((await call(base, 'GET', '/api/dashboard/overview', { cookie: buyer.cookie })).status).toBe(200)
    }
    const again = await signIn(B, LB, buyer.email, buyer.password)
    expect((await call(A, 'GET', '/api/auth/get-session', { cookie: again.cookie })).body).toMatchObject({
      user: { email: buyer.email },
    })
  })

  it('serves a photo uploaded through one instance from the other, with its ETag', async () => {
    const seller = await signUp(LB, LB, 'seller')
    const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'laptop.jpg')
    const uploaded = await call(A, 'POST', '/api/uploads', { cookie: seller.cookie, origin: LB, raw: form })
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201)
    const { card, detail } = uploaded.body as { card: string; detail: string }
    for (const url of [card, detail]) {
      const fromB = await fetch(`${B}${url}`)
      expect(fromB.status).toBe(200)
      expect(fromB.headers.get('content-type')).toBe('image/webp')
      expect(fromB.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const etag = fromB.headers.get('etag') ?? ''
      expect((await fromB.arrayBuffer()).byteLength).toBeGreaterThan(0)
      const fromA = await fetch(`${A}${url}`)
      expect(fromA.headers.get('etag')).toBe(etag)
      expect((await fetch(`${B}${url}`, { headers: { 'if-none-match': etag } })).status).toBe(304)
    }
  })

  it('refuses, on the other instance at once, the session of a user an admin deleted', async () => {
    const admin = await signUp(LB, LB, 'buyer', 'admin')
    await db.query(`update users set role = 'admin' where id = $1`, [admin.id])
    const buyer = await signUp(LB, LB, 'buyer')
    expect((await call(B, 'GET', '/api/dashboard/overview', { cookie: buyer.cookie })).status).toBe(200)
    const deleted = await call(A, 'DELETE', `/api/buyers/${buyer.id}`, { cookie: admin.cookie, origin: LB })
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200)
    expect((await call(B, 'GET', '/api/dashboard/overview', { cookie: buyer.cookie })).status).toBe(401)
    expect((await call(B, 'GET', '/api/auth/get-session', { cookie: buyer.cookie })).body).toBeNull()
  })

  it('takes a sold laptop off every instance’s home page within a second', async () => {
    const seller = await signUp(LB, LB, 'seller')
    const id = await listLaptop(seller, A, 'Cluster Sold Laptop', true)
    const onHomePage = async (base: string) =>
      ((await call(base, 'GET', '/api/advertised_product')).body as { _id: string }[]).some(
        (p) => p._id === id,
      )
    // Both instances now hold the list with the laptop in their caches (60 s).
    expect(await onHomePage(A)).toBe(true)
    expect(await onHomePage(B)).toBe(true)
    const sold = await call(A, 'PUT', `/api/products/${id}/sold`, { cookie: seller.cookie, origin: LB })
    expect(sold.status).toBe(200)
    const started = Date.now()
    while ((await onHomePage(B)) && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 20))
    const elapsed = Date.now() - started
    console.log(`sold laptop left the other instance's home page after ${elapsed} ms`)
    expect(await onHomePage(B)).toBe(false)
    expect(elapsed).toBeLessThan(1000)
  })

  it('takes a laptop sold through one instance out of search on the other within a second', async () => {
    const seller = await signUp(LB, LB, 'seller')
    const id = await listLaptop(seller, A, 'Cluster Searchable Laptop')
    // A search each instance answers from its copy of the listings (a brand, newest first).
    const inSearch = async (base: string) =>
      (
        (await call(base, 'GET', `/api/search?brand=${brandId}&sort=newest&page_size=50`)).body as {
          items: { _id: string }[]
        }
      ).items.some((p) => p._id === id)
    expect(await inSearch(A)).toBe(true)
    expect(await inSearch(B)).toBe(true)
    const sold = await call(A, 'PUT', `/api/products/${id}/sold`, { cookie: seller.cookie, origin: LB })
    expect(sold.status).toBe(200)
    const started = Date.now()
    while ((await inSearch(B)) && Date.now() - started < 1000) await new Promise((r) => setTimeout(r, 20))
    const elapsed = Date.now() - started
    console.log(`sold laptop left the other instance's search after ${elapsed} ms`)
    expect(await inSearch(B)).toBe(false)
    expect(elapsed).toBeLessThan(1000)
    // The other instance's copy has applied the sale (it is at the database's version).
    const { rows } = await db.query<{ v: string }>('select version::text as v from listing_counts_version')
    const health = (await call(B, 'GET', '/api/health')).body as {
      status: string
      listing_copy: { version: string } | null
    }
    expect(health.status).toBe('ok')
    expect(BigInt(health.listing_copy?.version ?? 0)).toBeGreaterThanOrEqual(BigInt(rows[0]?.v ?? 1))
  })

  it('sells a laptop once when eight buyers pay at once through both instances, 50 times over', async () => {
    const seller = await signUp(LB, LB, 'seller')
    const buyers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signUp(LB, LB, 'buyer', `payer${i}`)),
    )
    const rounds = 50
    for (let round = 0; round < rounds; round++) {
      const id = await listLaptop(seller, round % 2 ? A : B, `Cluster Race ${round}`)
      const bookings = await Promise.all(
        buyers.map(async (buyer, i) => {
          const res = await call(i % 2 ? A : B, 'POST', '/api/bookings', {
            cookie: buyer.cookie,
            origin: LB,
            body: { productId: id, phoneNumber: '(512) 555-0100', location: 'Austin, TX' },
          })
          expect(res.status, JSON.stringify(res.body)).toBe(201)
          return (res.body as { insertedId: string }).insertedId
        }),
      )
      // Each buyer opens the payment page (the hold) on one instance and pays through the other.
      const paid = await Promise.all(
        buyers.map(async (buyer, i) => {
          await call(i % 2 ? A : B, 'POST', `/api/bookings/${bookings[i]}/hold`, {
            cookie: buyer.cookie,
            origin: LB,
          })
          return call(i % 2 ? B : A, 'POST', '/api/payments/test', {
            cookie: buyer.cookie,
            origin: LB,
            body: { bookingId: bookings[i], card: CARD },
          })
        }),
      )
      const statuses = paid.map((p) => p.status).sort()
      expect(statuses, `round ${round}`).toEqual([200, 409, 409, 409, 409, 409, 409, 409])
      const sales = await db.query(
        `select count(*)::int as n from payments where product_id = $1 and status = 'succeeded'`,
        [id],
      )
      expect(sales.rows[0]?.n, `round ${round}`).toBe(1)
    }
  }, 180_000)

  it('sends each email once while both instances run the email worker', async () => {
    // Each sign-up queues a verification email; each reset request, through either instance, a reset email.
    const accounts: Account[] = []
    for (let i = 0; i < 6; i++) accounts.push(await signUp(LB, LB, 'buyer', `mail${i}`))
    for (const [i, account] of accounts.entries()) {
      const res = await call(i % 2 ? A : B, 'POST', '/api/auth/request-password-reset', {
        origin: LB,
        body: { email: account.email },
      })
      expect(res.status).toBe(200)
    }
    const addresses = new Set(accounts.map((a) => a.email))
    const ours = () =>
      smtp.received.filter((m) =>
        (Array.isArray(m.to) ? m.to : [m.to]).some((to) =>
          to?.value.some((v) => addresses.has(v.address ?? '')),
        ),
      )
    const deadline = Date.now() + 30_000
    while (ours().length < 12 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200))
    // A second copy of any of them would have had time to arrive.
    await new Promise((r) => setTimeout(r, 3000))
    const mails = ours()
    expect(mails).toHaveLength(12)
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(12)
    for (const account of accounts) {
      const subjects = mails
        .filter((m) =>
          (Array.isArray(m.to) ? m.to : [m.to]).some((to) => to?.value[0]?.address === account.email),
        )
        .map((m) => m.subject)
        .sort()
      expect(subjects).toEqual([
        'Confirm your email address for Laptop Market',
        'Reset your Laptop Market password',
      ])
    }
  })

  it('loses no request at the balancer when one instance is stopped with SIGTERM under steady load', async () => {
    const seller = await signUp(LB, LB, 'seller')
    const stopping = cluster.instances[1]
    if (!stopping) throw new Error('no second instance')
    let running = true
    const failures: string[] = []
    let requests = 0
    const worker = async (w: number) => {
      let n = 0
      while (running) {
        n += 1
        const answer =
          n % 5 === 0
            ? await call(LB, 'POST', '/api/products', {
                cookie: seller.cookie,
                origin: LB,
                body: { ...LISTING, name: `Drain ${w}-${n}`, category_id: brandId },
              }).catch((err: Error) => ({ status: 0, body: err.message }))
            : await call(LB, 'GET', n % 2 ? '/api/advertised_product' : '/api/brands').catch(
                (err: Error) => ({
                  status: 0,
                  body: err.message,
                }),
              )
        requests += 1
        if (answer.status >= 300 || answer.status === 0)
          failures.push(`${answer.status} ${JSON.stringify(answer.body)}`)
      }
    }
    const workers = Array.from({ length: 8 }, (_, w) => worker(w))
    await new Promise((r) => setTimeout(r, 1500))
    const signalled = Date.now()
    stopping.process.kill('SIGTERM')
    // Health turns 503 as soon as the process has read the signal, while it still takes requests.
    let health = await call(stopping.url, 'GET', '/api/health')
    while (health.status === 200 && Date.now() - signalled < 1000) {
      await new Promise((r) => setTimeout(r, 10))
      health = await call(stopping.url, 'GET', '/api/health')
    }
    const unhealthyMs = Date.now() - signalled
    expect(health.status).toBe(503)
    expect(health.body).toMatchObject({ status: 'draining' })
    const code = await stopping.exited
    const drainedMs = Date.now() - signalled
    await new Promise((r) => setTimeout(r, 1500))
    running = false
    await Promise.all(workers)
    console.log(
      `SIGTERM under load: ${requests} requests at the balancer, ${failures.length} failed; ` +
        `health answered 503 after ${unhealthyMs} ms; the instance exited with ${code} after ${drainedMs} ms`,
    )
    expect(failures).toEqual([])
    expect(code).toBe(0)
    expect(drainedMs).toBeLessThan(10_000)
    // The instance comes back and takes its share again.
    await cluster.startInstance(1)
    expect((await call(B, 'GET', '/api/health')).status).toBe(200)
  }, 60_000)
})

describe('the payout job on two instances at once', () => {
  it('pays each seller exactly once, whichever instances run how many runs side by side', async () => {
    const SELLERS = 8
    const buyer = await signUp(LB, LB, 'buyer', 'payoutbuyer')
    const sellers: Account[] = []
    for (let i = 0; i < SELLERS; i++) {
      const seller = await signUp(LB, LB, 'seller', `payoutseller${i}`)
      // Payout details are saved only after "Confirm it's you" (the password, within five minutes).
      const proof = await call(LB, 'POST', '/api/me/step-up', {
        cookie: seller.cookie,
        origin: LB,
        body: { password: seller.password },
      })
      expect(proof.status, JSON.stringify(proof.body)).toBe(200)
      const payouts = await call(i % 2 ? A : B, 'POST', '/api/payouts/account', {
        cookie: seller.cookie,
        origin: LB,
        body: { account_holder: `Seller ${i}`, routing_number: '110000000', account_number: '000123456789' },
      })
      expect(payouts.status, JSON.stringify(payouts.body)).toBe(200)
      const productId = await listLaptop(seller, i % 2 ? A : B, `Cluster Payout ${i}`)
      const booked = await call(LB, 'POST', '/api/bookings', {
        cookie: buyer.cookie,
        origin: LB,
        body: { productId, phoneNumber: '(512) 555-0100', location: 'Austin, TX' },
      })
      expect(booked.status, JSON.stringify(booked.body)).toBe(201)
      const bookingId = (booked.body as { insertedId: string }).insertedId
      const steps: [string, string, Account, unknown][] = [
        [A, `/api/bookings/${bookingId}/hold`, buyer, undefined],
        [B, '/api/payments/test', buyer, { bookingId, card: CARD }],
        [A, `/api/bookings/${bookingId}/handed-over`, seller, {}],
        [
          B,
          `/api/bookings/${bookingId}/received`,
          buyer,
          { checklist: Object.fromEntries(HANDOVER_CHECK_KEYS.map((key) => [key, true])) },
        ],
      ]
      for (const [base, url, who, body] of steps) {
        const method = url.endsWith('/hold') || url.endsWith('/test') ? 'POST' : 'PUT'
        const res = await call(base, method, url, {
          cookie: who.cookie,
          origin: LB,
          ...(body === undefined ? {} : { body }),
        })
        expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200)
      }
      sellers.push(seller)
    }
    const ids = sellers.map((s) => s.id)
    const price = Math.round(LISTING.resale_price * 100)
    const net = price - feeCents(price, { basisPoints: 500, minCents: 0 })

    // Ten payout runs queued at once: each instance fetches what it can and runs its share side by side.
    await db.query(
      `insert into pgboss.job (name, data) select 'payouts.run', '{}'::jsonb from generate_series(1, 10)`,
    )
    const started = Date.now()
    for (;;) {
      const left = await db.query<{ n: number }>(
        `select count(*)::int as n from pgboss.job where name = 'payouts.run' and state in ('created', 'retry', 'active')
           and start_after <= now()`,
      )
      if ((left.rows[0]?.n ?? 0) === 0) break
      if (Date.now() - started > 60_000) throw new Error('the payout runs did not finish within a minute')
      await new Promise((r) => setTimeout(r, 250))
    }
    const paid = await db.query<{ seller_id: string; n: number; total: string }>(
      `select seller_id, count(*)::int as n, sum(amount_cents)::bigint as total from payouts
         where seller_id = any($1) group by seller_id`,
      [ids],
    )
    expect(paid.rows).toHaveLength(SELLERS)
    for (const row of paid.rows) {
      expect(row.n).toBe(1)
      expect(Number(row.total)).toBe(net)
    }
    const ledger = await db.query<{ seller_id: string; payouts: number; available: string }>(
      `select t.seller_id, count(distinct t.id) filter (where t.kind = 'payout')::int as payouts,
          coalesce(sum(e.amount_cents) filter (where e.account_id = 'available:' || t.seller_id), 0)::bigint as available
         from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
         where t.seller_id = any($1) group by t.seller_id`,
      [ids],
    )
    for (const row of ledger.rows) {
      expect(row.payouts).toBe(1)
      expect(Number(row.available)).toBe(0)
    }
    const runs = await db.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'payouts.run' and state = 'completed'`,
    )
    expect(runs.rows[0]?.n ?? 0).toBeGreaterThanOrEqual(10)
    console.log(
      `payout runs: 10 queued at once for the two instances, ${SELLERS} sellers paid once each in ${Date.now() - started} ms`,
    )
  }, 240_000)
})
