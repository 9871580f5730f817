// Questions to a seller before buying, through the API: who may ask (signed in, a confirmed email, not their own
// listing, not once blocked, a few a day), the messages' rules against off-platform payment and contact details, the
// seller's answer public (first name only) or private, the grouped email to the seller and the asker's email, the
// public Q&A and its cache, and erasure.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ErrorBody } from '#contract/errors'
import { PublicQuestionList, QuestionList } from '#contract/questions'
import { type products, questions, users } from '#server/db/schema'
import type { OutgoingEmail } from '#server/mail/transport'
import { bearerFor } from '#server/test/auth-helpers'
import { type BrandRow, createBrand, createProduct, createUser, type UserRow } from '#server/test/factories'
import { createTestApp, type TestApp } from '#server/test/test-app'
import * as renderer from '../../../web/src/ssr/entry-server'
import { eraseAccount } from '../account/erase.service'
import { sendQuestionsEmail } from './questions.service'

const PER_DAY = 4

let t: TestApp
let brand: BrandRow
let seller: UserRow
let buyer: UserRow

beforeAll(async () => {
  // Listing pages rendered and kept in the public cache as in production, so a change must reach them.
  t = await createTestApp(
    { QUESTIONS_PER_DAY: String(PER_DAY), QUESTION_EMAIL_GROUP_SECONDS: '0', PUBLIC_CACHE_TTL_MS: '60000' },
    { pageRenderer: renderer },
  )
  brand = await createBrand(t.db)
  seller = await createUser(t.db, { role: 'seller', name: 'Sam Seller' })
  buyer = await createUser(t.db, { role: 'buyer', name: 'Alexandra Quinn-Buyer' })
})

afterAll(async () => {
  await t?.close()
})

beforeEach(async () => {
  await t.app.ctx.jobs.drain()
  t.outbox.length = 0
  // Each test starts with the default buyer's day of questions behind them.
  await t.db
    .update(questions)
    .set({ createdAt: new Date(Date.now() - 48 * 3600_000) })
    .where(eq(questions.askerId, buyer.id))
})

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  who: UserRow | null,
  body?: unknown,
) {
  return t.app.inject({
    method,
    url,
    headers: who ? await bearerFor(t.app, who) : {},
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  })
}

function refusal(res: { statusCode: number; json(): unknown }, status: number) {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(status)
  return ErrorBody.parse(res.json()).error
}

const listing = (overrides: Omit<Partial<typeof products.$inferInsert>, 'images'> = {}) =>
  createProduct(t.db, { seller, brand, ...overrides })

async function ask(productId: string, body: string, who: UserRow = buyer) {
  return call('POST', `/api/products/${productId}/questions`, who, { body })
}

async function asked(productId: string, body: string, who: UserRow = buyer): Promise<string> {
  const res = await ask(productId, body, who)
  expect(res.statusCode, res.body).toBe(201)
  return res.json().insertedId
}

async function emails(): Promise<OutgoingEmail[]> {
  await t.app.ctx.jobs.drain()
  const out = [...t.outbox]
  t.outbox.length = 0
  return out
}

const publicQa = async (productId: string) => {
  const res = await call('GET', `/api/products/${productId}/questions`, null)
  expect(res.statusCode, res.body).toBe(200)
  return PublicQuestionList.parse(res.json())
}

describe('asking the seller', () => {
  it('refuses a visitor who is not signed in (401) and changes nothing', async () => {
    const product = await listing()
    const res = await call('POST', `/api/products/${product.id}/questions`, null, {
      body: 'Is the battery new?',
    })
    refusal(res, 401)
    expect(await t.db.select().from(questions).where(eq(questions.productId, product.id))).toEqual([])
  })

  it('refuses an account whose email is not confirmed, saying how to confirm it', async () => {
    const product = await listing()
    const unconfirmed = await createUser(t.db, { role: 'buyer', emailVerified: false })
    const error = refusal(await ask(product.id, 'Does it come with the charger?', unconfirmed), 403)
    expect(error.message).toMatch(/^Confirm your email address before asking a question/)
    expect(await t.db.select().from(questions).where(eq(questions.productId, product.id))).toEqual([])
  })

  it('refuses a question about your own listing', async () => {
    const product = await listing()
    const error = refusal(await ask(product.id, 'Anyone there?', seller), 403)
    expect(error.message).toBe('You cannot ask a question about your own listing')
  })

  it('refuses an unknown listing (404), a removed one (404) and a sold one (409)', async () => {
    refusal(await ask('00000000-0000-4000-8000-000000000000', 'Hello?'), 404)
    const removed = await listing({ removedAt: new Date() })
    refusal(await ask(removed.id, 'Still there?'), 404)
    const sold = await listing({ isSold: true })
    expect(refusal(await ask(sold.id, 'Still there?'), 409).message).toBe('This laptop has already been sold')
  })

  it('takes a question, tells the seller in one email with the others of the next minutes, first names only', async () => {
    const product = await listing({ name: 'ThinkPad X1 Carbon' })
    const other = await createUser(t.db, { role: 'buyer', name: 'Jo Other' })
    // The job waits a few minutes by default (0 s here); the second question finds it waiting and joins it.
    await asked(product.id, 'Are there any dead pixels?')
    await asked(product.id, 'Is the keyboard backlit?', other)
    const mail = (await emails()).filter((e) => e.headers['X-Laptop-Market-Email'] === 'question-received')
    expect(mail).toHaveLength(1)
    expect(mail[0]?.to).toContain(seller.email)
    expect(mail[0]?.subject).toBe('2 new questions about your laptops')
    expect(mail[0]?.text).toContain('Alexandra asked about')
    expect(mail[0]?.text).toContain('Are there any dead pixels?')
    expect(mail[0]?.text).not.toContain('Quinn-Buyer')
    // Told once: the job again finds nothing.
    expect(await sendQuestionsEmail(t.app.ctx, seller.id)).toBe(0)
  })

  it('refuses off-platform payment requests and contact details, as messages flag them', async () => {
    const product = await listing()
    for (const body of [
      'Can I pay you by wire transfer instead?',
      'Would you take a gift card?',
      'I can pay in bitcoin, ok?',
      'Text me on +44 7700 900123 please',
      'Email me at someone@example.com',
    ]) {
      const error = refusal(await ask(product.id, body), 400)
      expect(error.fields?.body, body).toBeTruthy()
    }
    expect(await t.db.select().from(questions).where(eq(questions.productId, product.id))).toEqual([])
    // Prices, years and model numbers are not contact details.
    await asked(product.id, 'Would $650 work? Is it the 2021 model 20XW?')
  })

  it('refuses the question past QUESTIONS_PER_DAY in 24 hours with when to ask again, whatever the listing', async () => {
    const keen = await createUser(t.db, { role: 'buyer' })
    for (let i = 0; i < PER_DAY; i += 1) await asked((await listing()).id, `Question number ${i + 1}?`, keen)
    const error = refusal(await ask((await listing()).id, 'One more?', keen), 429)
    expect(error.message).toMatch(
      new RegExp(
        `^You have asked ${PER_DAY} questions in the last 24 hours, the most we allow\\. You can ask again in about 24 hours\\.$`,
      ),
    )
    // A day later the count starts again.
    await t.db
      .update(questions)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(questions.askerId, keen.id))
    await asked((await listing()).id, 'Back again?', keen)
  })
})

describe('the seller answers', () => {
  it('a public answer shows on the listing with the asker’s first name only; the asker is emailed', async () => {
    const product = await listing({ name: 'Dell XPS 13' })
    const id = await asked(product.id, 'How many charge cycles?')
    await emails()
    expect(await publicQa(product.id)).toEqual([])
    const res = await call('PUT', `/api/questions/${id}/answer`, seller, {
      answer: '212 cycles.',
      public: true,
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    const qa = await publicQa(product.id)
    expect(qa).toMatchObject([
      { _id: id, askerFirstName: 'Alexandra', body: 'How many charge cycles?', answer: '212 cycles.' },
    ])
    expect(JSON.stringify(qa)).not.toContain('Quinn')
    expect(JSON.stringify(qa)).not.toContain(buyer.id)
    expect(JSON.stringify(qa)).not.toContain(buyer.email)
    const [mail] = (await emails()).filter((e) => e.headers['X-Laptop-Market-Email'] === 'question-answered')
    expect(mail?.to).toContain(buyer.email)
    expect(mail?.text).toContain('212 cycles.')
    expect(mail?.text).toContain('with your first name only')
    // Changing the answer changes what the listing shows at once (the cache follows), and emails nobody again.
    await call('PUT', `/api/questions/${id}/answer`, seller, {
      answer: '212 cycles, 91% health.',
      public: true,
    })
    expect((await publicQa(product.id))[0]?.answer).toBe('212 cycles, 91% health.')
    await call('PUT', `/api/questions/${id}/answer`, seller, {
      answer: '212 cycles, 91% health.',
      public: false,
    })
    expect(await publicQa(product.id)).toEqual([])
    expect(await emails()).toEqual([])
  })

  it('the listing’s server-rendered page shows the public Q&A, and drops it when it turns private', async () => {
    const product = await listing({ name: 'HP Spectre x360' })
    const id = await asked(product.id, 'Does the pen come with it?')
    await call('PUT', `/api/questions/${id}/answer`, seller, {
      answer: 'Yes, the original pen.',
      public: true,
    })
    const page = await t.app.inject({ method: 'GET', url: `/products/${product.id}` })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('Questions and answers')
    expect(page.body).toContain('Does the pen come with it?')
    expect(page.body).toContain('Yes, the original pen.')
    expect(page.body).toContain('Alexandra')
    expect(page.body).not.toContain('Quinn-Buyer')
    await call('PUT', `/api/questions/${id}/answer`, seller, {
      answer: 'Yes, the original pen.',
      public: false,
    })
    const again = await t.app.inject({ method: 'GET', url: `/products/${product.id}` })
    expect(again.body).not.toContain('Yes, the original pen.')
  })

  it('a private answer is the asker’s alone: not on the listing, on their questions page', async () => {
    const product = await listing()
    const id = await asked(product.id, 'Any scratches on the lid?')
    await call('PUT', `/api/questions/${id}/answer`, seller, {
      answer: 'One small one, see photo 3.',
      public: false,
    })
    expect(await publicQa(product.id)).toEqual([])
    const mine = QuestionList.parse((await call('GET', '/api/questions?role=asker', buyer)).json())
    expect(mine.items.find((q) => q._id === id)).toMatchObject({
      answer: 'One small one, see photo 3.',
      public: false,
      blocked: false,
    })
    const [mail] = (await emails()).filter((e) => e.headers['X-Laptop-Market-Email'] === 'question-answered')
    expect(mail?.text).toContain('Only you can see this answer')
  })

  it('only the listing’s seller answers; an answer keeps to the same rules', async () => {
    const product = await listing()
    const id = await asked(product.id, 'Is the SSD original?')
    const otherSeller = await createUser(t.db, { role: 'seller' })
    const admin = await createUser(t.db, { role: 'admin' })
    for (const who of [buyer, otherSeller, admin]) {
      refusal(await call('PUT', `/api/questions/${id}/answer`, who, { answer: 'Yes.', public: true }), 404)
    }
    const error = refusal(
      await call('PUT', `/api/questions/${id}/answer`, seller, {
        answer: 'Yes. Pay me by bank transfer.',
        public: true,
      }),
      400,
    )
    expect(error.fields?.answer).toBeTruthy()
    refusal(
      await call('PUT', `/api/questions/${id}/answer`, seller, { answer: 'Yes.', extra: 1, public: true }),
      400,
    )
    const [row] = await t.db.select().from(questions).where(eq(questions.id, id))
    expect(row).toMatchObject({ answer: null, isPublic: false })
  })

  it('the seller’s list puts unanswered first and counts them', async () => {
    const lonely = await createUser(t.db, { role: 'seller' })
    const product = await createProduct(t.db, { seller: lonely, brand })
    const first = await asked(product.id, 'First?')
    await asked(product.id, 'Second?')
    await call('PUT', `/api/questions/${first}/answer`, lonely, { answer: 'Yes.', public: false })
    await asked(product.id, 'Third?')
    const list = QuestionList.parse((await call('GET', '/api/questions?role=seller', lonely)).json())
    expect(list.items.map((q) => q.body)).toEqual(['Third?', 'Second?', 'First?'])
    expect(list.unanswered).toBe(2)
    expect(list.items[0]?.askerFirstName).toBe('Alexandra')
    expect((await call('GET', '/api/questions/unanswered', lonely)).json()).toEqual({ count: 2 })
    expect((await call('GET', '/api/questions/unanswered', buyer)).json()).toEqual({ count: 0 })
  })
})

describe('blocking an asker', () => {
  it('refuses a blocked asker on every listing of that seller with a clear message, until unblocked', async () => {
    const pest = await createUser(t.db, { role: 'buyer', name: 'Pat Pest' })
    const product = await listing()
    const id = await asked(product.id, 'Lowest price?', pest)
    const res = await call('POST', `/api/questions/${id}/block`, seller)
    expect(res.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    expect((await call('POST', `/api/questions/${id}/block`, seller)).json()).toEqual({
      acknowledged: true,
      modifiedCount: 0,
    })
    const error = refusal(await ask((await listing()).id, 'Lowest price now?', pest), 403)
    expect(error.message).toBe('This seller does not take questions from you.')
    // Another seller still takes their questions.
    const elsewhere = await createProduct(t.db, { seller: await createUser(t.db, { role: 'seller' }), brand })
    await asked(elsewhere.id, 'Lowest price?', pest)
    // The blocked asker's questions leave the count of unanswered; the seller's list marks them.
    const list = QuestionList.parse((await call('GET', '/api/questions?role=seller', seller)).json())
    expect(list.items.find((q) => q._id === id)?.blocked).toBe(true)
    // The asker never sees the mark on their own list.
    const theirs = QuestionList.parse((await call('GET', '/api/questions?role=asker', pest)).json())
    expect(theirs.items.find((q) => q._id === id)?.blocked).toBe(false)
    // Only the question's seller can block or unblock.
    refusal(await call('DELETE', `/api/questions/${id}/block`, buyer), 404)
    expect((await call('DELETE', `/api/questions/${id}/block`, seller)).json()).toEqual({
      acknowledged: true,
      deletedCount: 1,
    })
    await asked((await listing()).id, 'Lowest price, please?', pest)
  })
})

describe('your data', () => {
  it('exports the questions a person asked and answered, and erasure masks their contact details', async () => {
    const asker = await createUser(t.db, { role: 'buyer', name: 'Erin Erased' })
    const product = await listing()
    const id = await asked(product.id, 'Is the warranty transferable?', asker)
    await call('PUT', `/api/questions/${id}/answer`, seller, { answer: 'Yes, until March.', public: true })
    // A body written before the rule (or by hand) with a phone number in it.
    await t.db
      .update(questions)
      .set({ body: 'Is the warranty transferable? Call 0161 496 0000' })
      .where(eq(questions.id, id))

    const exported = await call('GET', '/api/me/export', asker)
    expect(exported.statusCode, exported.body).toBe(200)
    const sections = exported.json().sections as { title: string; items: Record<string, unknown>[] }[]
    expect(sections.find((s) => s.title === 'Questions you asked')?.items).toMatchObject([
      { id, answer: 'Yes, until March.', is_public: true },
    ])
    const sellersExport = (await call('GET', '/api/me/export', seller)).json().sections as {
      title: string
      items: { id: string }[]
    }[]
    expect(
      sellersExport.find((s) => s.title === 'Questions about your laptops')?.items.map((q) => q.id),
    ).toContain(id)

    await eraseAccount(t.db, asker.id, t.app.ctx.mail)
    const [row] = await t.db.select().from(questions).where(eq(questions.id, id))
    expect(row?.body).toBe('Is the warranty transferable? Call [removed]')
    // Erased outside a request: every instance's public cache sees it within a poll.
    await expect
      .poll(async () => (await publicQa(product.id)).find((q) => q._id === id)?.askerFirstName)
      .toBeNull()
    const qa = await publicQa(product.id)
    expect(qa.find((q) => q._id === id)).toMatchObject({ askerFirstName: null, answer: 'Yes, until March.' })
    expect(JSON.stringify(qa)).not.toContain('Erin')
    const [gone] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, asker.id))
    expect(gone?.name).toBe('Deleted user')
  })
})
