// How many listings can 30 fresh accounts from one client address keep reserved at once? The attacker is
// given every advantage the product allows: each account it manages to make confirms its email (throwaway
// mailboxes are free), books listings and opens their payment pages until it is refused. The general write
// limit (RATE_LIMIT_PER_MINUTE) is off, as an attacker paces under it. Prints the sign-ups that went through,
// the holds taken and the listings reserved at the end (target: no more than 3).
// Run: npx tsx bench/reservations.ts [ACCOUNTS]  (30 by default)
import { and, gt, sql } from 'drizzle-orm'
import { buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import { openDatabase } from '#server/database'
import { productHolds } from '#server/db/schema'
import { MemoryMediaStorage } from '#server/lib/storage'
import type { OutgoingEmail } from '#server/mail/transport'
import { createBrand, createProduct, createUser } from '#server/test/factories'

const ACCOUNTS = Number(process.argv[2] ?? 30)
const LISTINGS = ACCOUNTS * 4
const ADDRESS = '203.0.113.66'
const TRIES_PER_ACCOUNT = 5

const database = await openDatabase({ driver: 'pglite' })
const outbox: OutgoingEmail[] = []
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  TRUST_PROXY: 'true',
  RATE_LIMIT_PER_MINUTE: '0',
})
const app = await buildApp({
  config,
  database,
  storage: new MemoryMediaStorage(),
  logger: false,
  mailTransport: {
    kind: 'smtp',
    async send(email) {
      outbox.push(email)
      return {}
    },
    close() {},
  },
})
await app.ready()
const origin = config.publicUrl
const fromAttacker = { origin, 'x-forwarded-for': ADDRESS }

const seller = await createUser(database.db, { role: 'seller' })
const brand = await createBrand(database.db)
const listings: string[] = []
for (let i = 0; i < LISTINGS; i++) listings.push((await createProduct(database.db, { seller, brand })).id)

// Sign-ups from one address.
const accounts: { email: string; cookie: string }[] = []
for (let i = 0; i < ACCOUNTS; i++) {
  const email = `throwaway-${i}-${Date.now().toString(36)}@example.test`
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: fromAttacker,
    payload: { name: `Throwaway ${i}`, email, password: 'throwaway-pass-1', role: 'buyer' },
  })
  if (res.statusCode !== 200) continue
  const raw = res.headers['set-cookie']
  const cookies = (Array.isArray(raw) ? raw : [raw ?? '']).map((c) => c.split(';')[0]).join('; ')
  accounts.push({ email, cookie: cookies })
}

// Each account confirms its address from the email it got.
await app.ctx.jobs.drain('email')
let confirmed = 0
for (const account of accounts) {
  const mail = outbox.find((m) => m.to.includes(account.email) && /verify-email/.test(m.text))
  const link = mail?.text.match(/https?:\/\/\S+\/api\/auth\/verify-email\?token=\S+/)?.[0]
  if (!link) continue
  const url = new URL(link)
  const res = await app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: fromAttacker })
  if (res.statusCode < 400) confirmed++
}

// Each account books listings nobody holds yet and opens their payment pages until it is refused.
let next = 0
let holds = 0
const refusals = new Map<string, number>()
for (const account of accounts) {
  for (let tries = 0; tries < TRIES_PER_ACCOUNT && next < listings.length; tries++) {
    const productId = listings[next++] as string
    const headers = { ...fromAttacker, cookie: account.cookie }
    const booked = await app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers,
      payload: { productId, phoneNumber: '+1 555 010 0000', location: 'Nowhere, NV' },
    })
    if (booked.statusCode !== 201) {
      refusals.set(`booking ${booked.statusCode}`, (refusals.get(`booking ${booked.statusCode}`) ?? 0) + 1)
      break
    }
    const bookingId = (booked.json() as { insertedId: string }).insertedId
    const held = await app.inject({ method: 'POST', url: `/api/bookings/${bookingId}/hold`, headers })
    if (held.statusCode === 200) holds++
    else {
      refusals.set(`hold ${held.statusCode}`, (refusals.get(`hold ${held.statusCode}`) ?? 0) + 1)
      break
    }
  }
}

const [live] = await database.db
  .select({ n: sql<number>`count(*)::int` })
  .from(productHolds)
  .where(and(gt(productHolds.holdUntil, sql`now()`)))

console.log(`accounts tried from ${ADDRESS}: ${ACCOUNTS}`)
console.log(`sign-ups that went through:    ${accounts.length}`)
console.log(`addresses confirmed:           ${confirmed}`)
console.log(`holds taken:                   ${holds}`)
console.log(
  `refusals:                      ${[...refusals].map(([k, v]) => `${k} ×${v}`).join(', ') || 'none'}`,
)
console.log(`LISTINGS KEPT RESERVED:        ${live?.n ?? 0} of ${LISTINGS} (target: no more than 3)`)

await app.close()
await database.close()
