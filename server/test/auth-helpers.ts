// Accounts and credentials for API tests: sign up and sign in through the real auth endpoints, bearer
// tokens from GET /api/jwt, and the identities every protected endpoint is checked against.

import { randomUUID } from 'node:crypto'
import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import type { InjectOptions, LightMyRequestResponse as Response } from 'fastify'
import { vi } from 'vitest'
import type { Role } from '#contract/users'
import type { AppInstance } from '#server/app'
import type { Db } from '#server/db/client'
import { auditEvents, products, reports, sessions, users } from '#server/db/schema'
import { recordStepUp } from '#server/lib/step-up'
import { createBooking, createBrand, createPayment, createProduct, createUser } from './factories'
import type { TestApp } from './test-app'

/** Every test account gets this password unless it asks for another. */
export const TEST_PASSWORD = 'laptop-pass-42'

export type Account = { id: string; name: string; email: string; role: Role }
export type SignedIn = { cookie: string; user: Account; password: string }

/** A unique address on the reserved .test domain. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`.toLowerCase()
}

/** The Origin a browser on our own pages would send (Better Auth checks it on cookie-bearing POSTs). */
export function originOf(app: AppInstance): string {
  return app.ctx.config.publicUrl
}

/** The `name=value` pairs a browser would send back, from a response's Set-Cookie headers. */
export function cookieFrom(res: Response): string {
  const raw = res.headers['set-cookie']
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
  return list
    .filter((c) => !/;\s*max-age=0/i.test(c))
    .map((c) => c.split(';')[0])
    .join('; ')
}

/** Cookies a browser holds after a response: the old ones, replaced or removed by its Set-Cookie. */
export function mergeCookies(cookie: string, res: Response): string {
  const jar = new Map(
    cookie
      .split('; ')
      .filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf('=')), c] as const),
  )
  const raw = res.headers['set-cookie']
  for (const line of raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]) {
    const pair = String(line).split(';')[0] ?? ''
    const name = pair.slice(0, pair.indexOf('='))
    if (/max-age=0/i.test(String(line)) || pair.endsWith('=')) jar.delete(name)
    else jar.set(name, pair)
  }
  return [...jar.values()].join('; ')
}

/** A POST to the auth routes (`/api/auth${path}`) as our own pages send it: the cookie and our Origin. */
export function postAuth(
  app: AppInstance,
  path: string,
  cookie: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { cookie, origin: originOf(app), ...headers },
    payload: payload as object,
  })
}

function expectOk(res: Response, what: string): void {
  if (res.statusCode !== 200) throw new Error(`${what} failed: ${res.statusCode} ${res.body}`)
}

/** POST /api/auth/sign-up/email as the web app does; the raw response, for tests of refusals. */
export function postSignUp(
  app: AppInstance,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: originOf(app), ...headers },
    payload: body,
  })
}

/** POST /api/auth/sign-in/email; the raw response, for tests of refusals and limits. */
export function postSignIn(
  app: AppInstance,
  body: { email: string; password?: string },
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: originOf(app), ...headers },
    payload: body,
  })
}

/** Signs up through the real endpoint (one password hash, ~0.4 s) and returns the session cookie. */
export async function signUp(
  app: AppInstance,
  input: { role: 'buyer' | 'seller'; name?: string; email?: string; password?: string },
): Promise<SignedIn> {
  const password = input.password ?? TEST_PASSWORD
  const email = input.email ?? uniqueEmail(input.role)
  const name = input.name ?? `Test ${input.role} ${email.split('@')[0]}`
  const res = await postSignUp(app, { name, email, password, role: input.role })
  expectOk(res, `sign-up of ${email}`)
  const { user } = res.json() as { user: Account }
  return { cookie: cookieFrom(res), user, password }
}

export async function signIn(
  app: AppInstance,
  input: { email: string; password?: string },
): Promise<SignedIn> {
  const password = input.password ?? TEST_PASSWORD
  const res = await postSignIn(app, { email: input.email, password })
  expectOk(res, `sign-in of ${input.email}`)
  const { user } = res.json() as { user: Account }
  return { cookie: cookieFrom(res), user, password }
}

export async function signOut(app: AppInstance, cookie: string): Promise<Response> {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-out',
    headers: { cookie, origin: originOf(app) },
  })
}

/** A bearer access token from GET /api/jwt for the signed-in user's own email. */
export async function bearerTokenFor(app: AppInstance, who: { cookie: string; user: { email: string } }) {
  const res = await app.inject({
    method: 'GET',
    url: `/api/jwt?email=${encodeURIComponent(who.user.email)}`,
    headers: { cookie: who.cookie },
  })
  expectOk(res, `access token for ${who.user.email}`)
  return (res.json() as { accessToken: string }).accessToken
}

/**
 * A genuine access token for any account, issued by the app without a sign-in: the cheap way to act as an
 * account inserted straight into the database (no password hashing).
 */
export async function tokenFor(
  app: AppInstance,
  user: Account,
  options: { steppedUp?: boolean } = {},
): Promise<string> {
  // A token lives as long as its session: the account gets one, as a sign-in would record it.
  const sessionId = randomUUID()
  await app.ctx.db.insert(sessions).values({
    id: sessionId,
    token: randomUUID(),
    userId: user.id,
    expiresAt: new Date(Date.now() + 7 * 24 * 3600 * 1000),
  })
  // As if the session had just confirmed it was them (POST /api/me/step-up): for tests of what a step-up allows.
  if (options.steppedUp) await recordStepUp(app.ctx.db, { id: user.id, sessionId }, 'password')
  return app.ctx.sessions.issueAccessToken({ ...user, isVerified: false, sessionId })
}

/** `Authorization: Bearer` headers for an account (see tokenFor). */
export async function bearerFor(
  app: AppInstance,
  user: Account,
  options: { steppedUp?: boolean } = {},
): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await tokenFor(app, user, options)}` }
}

/** Makes an account an admin directly in the database: the first admin comes from the command line. */
export async function makeAdmin(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ role: 'admin' }).where(eq(users.id, userId))
}

/**
 * A token the app itself issued, but long enough ago that it has expired: the clock is moved back while
 * it is signed, so the signature, issuer and audience are all genuine.
 */
export async function issueExpiredToken(app: AppInstance, user: Account): Promise<string> {
  const ttlMs = app.ctx.config.accessTokenTtlSeconds * 1000
  vi.setSystemTime(Date.now() - ttlMs - 60_000)
  try {
    return await tokenFor(app, user)
  } finally {
    vi.useRealTimers()
  }
}

/** The real admin endpoint's delete; the account keeps its row, disabled. */
export async function deleteThroughAdmin(app: AppInstance, admin: { cookie: string }, user: Account) {
  const list = user.role === 'seller' ? 'sellers' : 'buyers'
  const res = await app.inject({
    method: 'DELETE',
    url: `/api/${list}/${user.id}`,
    headers: { cookie: admin.cookie },
  })
  expectOk(res, `deleting ${user.email}`)
}

/**
 * A deleted user as they would try to come back: signed up and signed in (cookie and bearer token kept),
 * then deleted by an admin through the real endpoint.
 */
export async function signUpDeletedUser(
  app: AppInstance,
  admin: { cookie: string },
  role: 'buyer' | 'seller' = 'buyer',
): Promise<SignedIn & { token: string }> {
  const signed = await signUp(app, { role })
  const token = await bearerTokenFor(app, signed)
  await deleteThroughAdmin(app, admin, signed.user)
  return { ...signed, token }
}

/** An account inserted straight into the database, without a password: cheap targets for admin actions. */
export async function insertUser(
  db: Db,
  input: { role: Role; name?: string; email?: string; createdAt?: Date },
): Promise<Account> {
  const email = input.email ?? uniqueEmail(input.role)
  const row = await createUser(db, {
    id: randomUUID(),
    role: input.role,
    name: input.name ?? `Target ${input.role} ${email.split('@')[0]}`,
    email,
    createdAt: input.createdAt,
  })
  return { id: row.id, name: row.name, email: row.email, role: row.role }
}

/** A listing inserted straight into the database (with a brand of its own unless one is given). */
export async function insertListing(
  db: Db,
  input: { sellerId: string; brandId?: string; isAdvertised?: boolean; name?: string },
): Promise<Listing> {
  const brandId = input.brandId ?? (await createBrand(db)).id
  const row = await createProduct(db, {
    seller: { id: input.sellerId },
    brand: { id: brandId },
    name: input.name ?? `Laptop ${randomUUID().slice(0, 8)}`,
    resalePriceCents: 64_900,
    originalPriceCents: 129_900,
    isAdvertised: input.isAdvertised ?? true,
  })
  return { id: row.id, brandId, name: row.name, resalePriceCents: row.resalePriceCents }
}

export type Listing = { id: string; brandId: string; name: string; resalePriceCents: number }

/**
 * A booking inserted straight into the database, as the booking flow records it. A paid one also gets
 * its succeeded payment, and its listing is sold.
 */
export async function insertBooking(
  db: Db,
  input: { buyer: Account; listing: Listing; paid?: boolean },
): Promise<{ id: string }> {
  const { buyer, listing } = input
  const booking = await createBooking(db, { buyer, product: listing, isPaid: input.paid ?? false })
  if (input.paid) {
    await createPayment(db, { booking })
    await db.update(products).set({ isSold: true, soldAt: new Date() }).where(eq(products.id, listing.id))
  }
  return { id: booking.id }
}

// ---------------------------------------------------------------------------------------------
// Security events: what the audit log says an account did after a given point.
// ---------------------------------------------------------------------------------------------

/** The id of the newest audit event (0 when there is none): the point to read what follows from. */
export async function lastAuditId(db: Db): Promise<number> {
  const [row] = await db
    .select({ id: sql<number>`coalesce(max(${auditEvents.id}), 0)::int` })
    .from(auditEvents)
  return row?.id ?? 0
}

/** Every audit event after event `id`, whoever did it (none too), with all its columns, oldest first. */
export async function auditEventsSince(db: Db, id: number) {
  return db.select().from(auditEvents).where(gt(auditEvents.id, id)).orderBy(auditEvents.id)
}

/** The audit events of `userId`'s doing after event `id`, oldest first. */
export async function auditRowsSince(db: Db, id: number, userId: string) {
  return db
    .select({ kind: auditEvents.kind, result: auditEvents.result, target: auditEvents.target })
    .from(auditEvents)
    .where(and(gt(auditEvents.id, id), eq(auditEvents.actorId, userId)))
    .orderBy(auditEvents.id)
}

/** The same events as `kind:result`, e.g. `sign_in:success`. */
export async function auditKindsSince(db: Db, id: number, userId: string): Promise<string[]> {
  return (await auditRowsSince(db, id, userId)).map((r) => `${r.kind}:${r.result}`)
}

// ---------------------------------------------------------------------------------------------
// The identities every endpoint is walked against (server/test/identity-matrix.test.ts).
// ---------------------------------------------------------------------------------------------

export const IDENTITY_NAMES = [
  'anonymous',
  'buyer',
  'otherBuyer',
  'seller',
  'otherSeller',
  'admin',
  'deletedUser',
  'expiredToken',
] as const
export type IdentityName = (typeof IDENTITY_NAMES)[number]

/** How a caller proves who they are: nothing, the session cookie, or `Authorization: Bearer`. */
export type CredentialForm = 'none' | 'cookie' | 'bearer'

export type Credential = {
  identity: IdentityName
  form: CredentialForm
  headers: Record<string, string>
}

export type SignedInAccount = Account & { cookie: string; token: string }

export type Fixtures = {
  buyer: SignedInAccount
  otherBuyer: SignedInAccount
  seller: SignedInAccount
  otherSeller: SignedInAccount
  admin: SignedInAccount
  /** Signed in (cookie and token kept), then deleted by the admin. */
  deletedUser: SignedInAccount
  /** A brand with one advertised listing of `seller`'s, which `buyer` has booked. */
  brand: { id: string }
  product: { id: string }
  booking: { id: string }
  /** A new account (no password) for rows whose call changes or removes its target. */
  freshUser(role: Role): Promise<Account>
  /** A new available, unadvertised listing of `seller`'s, for rows that change or book it. */
  freshListing(): Promise<Listing>
  /** A new unpaid booking by `buyer` of a new listing of `seller`'s, for rows that pay for it. */
  freshBooking(): Promise<{ id: string }>
  /** A new open report by `buyer` of a new listing of `seller`'s, for rows that resolve it. */
  freshReport(): Promise<{ id: string }>
}

async function signedInAccount(app: AppInstance, signed: SignedIn): Promise<SignedInAccount> {
  const { id, name, email, role } = signed.user
  return { id, name, email, role, cookie: signed.cookie, token: await bearerTokenFor(app, signed) }
}

/**
 * Signs up the matrix's people (six password hashes, ~3 s) and lists every credential to try: the
 * signed-in identities each with their cookie and their bearer token, the deleted user with the cookie
 * and token they held before deletion, and a genuinely issued but expired token.
 */
export async function buildIdentities(
  t: Pick<TestApp, 'app' | 'db'>,
): Promise<{ fixtures: Fixtures; credentials: Credential[] }> {
  const { app, db } = t
  const buyer = await signedInAccount(app, await signUp(app, { role: 'buyer' }))
  const otherBuyer = await signedInAccount(app, await signUp(app, { role: 'buyer' }))
  const seller = await signedInAccount(app, await signUp(app, { role: 'seller' }))
  const otherSeller = await signedInAccount(app, await signUp(app, { role: 'seller' }))
  const adminSignUp = await signUp(app, { role: 'buyer', name: 'Matrix Admin' })
  await makeAdmin(db, adminSignUp.user.id)
  const admin = await signedInAccount(app, { ...adminSignUp, user: { ...adminSignUp.user, role: 'admin' } })
  const deleted = await signUpDeletedUser(app, admin)
  const deletedUser: SignedInAccount = { ...deleted.user, cookie: deleted.cookie, token: deleted.token }
  // Each has confirmed their email address, as a buyer must before holding a laptop to pay.
  await db
    .update(users)
    .set({ emailVerified: true })
    .where(inArray(users.id, [buyer.id, otherBuyer.id, seller.id, otherSeller.id, admin.id, deletedUser.id]))

  const listing = await insertListing(db, { sellerId: seller.id, isAdvertised: true })
  const booking = await insertBooking(db, { buyer, listing })
  const expired = await issueExpiredToken(app, buyer)
  const freshListing = () =>
    insertListing(db, { sellerId: seller.id, brandId: listing.brandId, isAdvertised: false })

  const fixtures: Fixtures = {
    buyer,
    otherBuyer,
    seller,
    otherSeller,
    admin,
    deletedUser,
    brand: { id: listing.brandId },
    product: { id: listing.id },
    booking,
    freshUser: (role) => insertUser(db, { role }),
    freshListing,
    freshBooking: async () => insertBooking(db, { buyer, listing: await freshListing() }),
    freshReport: async () => {
      const [report] = await db
        .insert(reports)
        .values({
          productId: (await freshListing()).id,
          reporterId: buyer.id,
          reason: 'The photos show another model.',
        })
        .returning({ id: reports.id })
      if (!report) throw new Error('freshReport: nothing inserted')
      return report
    },
  }

  const both = (identity: IdentityName, who: SignedInAccount): Credential[] => [
    { identity, form: 'cookie', headers: { cookie: who.cookie } },
    { identity, form: 'bearer', headers: { authorization: `Bearer ${who.token}` } },
  ]
  const credentials: Credential[] = [
    { identity: 'anonymous', form: 'none', headers: {} },
    ...both('buyer', buyer),
    ...both('otherBuyer', otherBuyer),
    ...both('seller', seller),
    ...both('otherSeller', otherSeller),
    ...both('admin', admin),
    ...both('deletedUser', deletedUser),
    { identity: 'expiredToken', form: 'bearer', headers: { authorization: `Bearer ${expired}` } },
  ]
  return { fixtures, credentials }
}

/** Sends one request as one credential; the Origin header is what our own pages would send. */
export function injectAs(
  app: AppInstance,
  credential: Pick<Credential, 'headers'>,
  request: { method: InjectOptions['method']; url: string; body?: unknown; headers?: Record<string, string> },
) {
  return app.inject({
    method: request.method,
    url: request.url,
    headers: { origin: originOf(app), ...request.headers, ...credential.headers },
    ...(request.body === undefined ? {} : { payload: request.body as InjectOptions['payload'] }),
  })
}

/** "Confirm it's you" with the password (`POST /api/me/step-up`): the session may then change a factor or payout details for 5 minutes. */
export async function stepUp(
  app: AppInstance,
  who: { cookie: string; password?: string },
  proof: { password?: string; code?: string } = { password: who.password ?? TEST_PASSWORD },
): Promise<void> {
  expectOk(await postStepUp(app, who.cookie, proof), 'step-up')
}

/** `POST /api/me/step-up` with a session cookie; the raw answer. */
export function postStepUp(app: AppInstance, cookie: string, proof: unknown) {
  return app.inject({
    method: 'POST',
    url: '/api/me/step-up',
    headers: { cookie, origin: originOf(app) },
    payload: proof as object,
  })
}
