import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm'
import { looksOffPlatform } from '#contract/messages'
import { paths } from '#contract/pages'
import { plural } from '#contract/plural'
import {
  firstName,
  type NewQuestion,
  PUBLIC_QUESTIONS_SHOWN,
  type PublicQuestion,
  type Question,
  type QuestionAnswer,
  type QuestionList,
  type QuestionRole,
} from '#contract/questions'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { products, questionBlocks, questions, users } from '#server/db/schema'
import { maskContactDetails } from '#server/lib/contact-details'
import { AppError, notFound } from '#server/lib/errors'
import { assertOnSale, lockSaleFacts } from '#server/lib/on-sale'
import type { SessionUser } from '#server/lib/session'

export type QuestionsContext = Pick<AppContext, 'db' | 'jobs' | 'mail' | 'config'>

/** At most this many questions are listed on the questions page, newest first. */
const LIST_LIMIT = 500
/** At most this many new questions are quoted in one email to the seller; the rest are counted. */
export const EMAILED_QUESTIONS = 10

export const OFF_PLATFORM_REFUSAL =
  'Keep payment on Laptop Market: questions and answers cannot ask to pay by bank transfer, gift card, crypto or any way outside Laptop Market, where the buyer is not protected.'
export const CONTACT_DETAILS_REFUSAL =
  'Leave out email addresses, phone numbers and bank details: questions and answers stay on Laptop Market until a laptop is paid for.'
export const BLOCKED_REFUSAL = 'This seller does not take questions from you.'

/**
 * The rules messages live by, applied to a question or an answer before anyone reads it. A message between a
 * buyer and a seller who have a booking is kept and flagged (its reader is warned); a question comes before any
 * booking and its answer may be shown to everyone, so the same tests refuse it instead: an off-platform payment
 * request (`looksOffPlatform`, the messages' one rule) or contact details (`maskContactDetails`, the erasure's).
 */
export function refuseOffPlatform(text: string, field: 'body' | 'answer'): void {
  if (looksOffPlatform(text))
    throw new AppError('VALIDATION', OFF_PLATFORM_REFUSAL, { [field]: OFF_PLATFORM_REFUSAL })
  if (maskContactDetails(text) !== text)
    throw new AppError('VALIDATION', CONTACT_DETAILS_REFUSAL, { [field]: CONTACT_DETAILS_REFUSAL })
}

/** "in 3 minutes", "in about 5 hours": when the daily limit lets the asker ask again. */
function inWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  if (minutes < 60) return `in ${plural(minutes, 'minute')}`
  return `in about ${plural(Math.round(minutes / 60), 'hour')}`
}

/**
 * "Ask the seller": a signed-in person with a confirmed email asks a listing's seller a question (not about their own
 * listing, not once the seller has blocked them, at most `questions.perDay` in any 24 hours, nothing asking to pay
 * outside the marketplace or carrying contact details). The listing must be on sale (the one rule, on its row). The
 * seller is told by email with the other questions of the next few minutes (`questions.seller-email`, one waiting
 * job per seller).
 */
export async function askQuestion(
  ctx: QuestionsContext,
  asker: SessionUser,
  productId: string,
  input: NewQuestion,
): Promise<string> {
  const { db, jobs, config } = ctx
  return db.transaction(async (tx) => {
    // One asker's questions are taken one at a time, so two tabs cannot both slip under the limit.
    const [account] = await tx
      .select({ emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, asker.id))
      .for('update')
    if (!account?.emailVerified) {
      throw new AppError(
        'FORBIDDEN',
        'Confirm your email address before asking a question: open the link we emailed you when you signed up, or send a new one from Settings (/dashboard/settings).',
      )
    }
    const listing = await lockSaleFacts(tx, productId)
    if (listing.removedAt || listing.sellerDisabledAt) throw notFound('Product')
    if (listing.sellerId === asker.id)
      throw new AppError('FORBIDDEN', 'You cannot ask a question about your own listing')
    assertOnSale(listing)
    const [blocked] = await tx
      .select({ at: questionBlocks.createdAt })
      .from(questionBlocks)
      .where(and(eq(questionBlocks.sellerId, listing.sellerId), eq(questionBlocks.askerId, asker.id)))
    if (blocked) throw new AppError('FORBIDDEN', BLOCKED_REFUSAL)
    const [recent] = await tx
      .select({
        n: sql<number>`count(*)::int`,
        secondsLeft: sql<number>`extract(epoch from (min(${questions.createdAt}) + interval '1 day' - now()))::float8`,
      })
      .from(questions)
      .where(and(eq(questions.askerId, asker.id), gt(questions.createdAt, sql`now() - interval '1 day'`)))
    const perDay = config.questions.perDay
    if ((recent?.n ?? 0) >= perDay) {
      throw new AppError(
        'RATE_LIMITED',
        `You have asked ${plural(perDay, 'question')} in the last 24 hours, the most we allow. You can ask again ${inWords(recent?.secondsLeft ?? 0)}.`,
      )
    }
    refuseOffPlatform(input.body, 'body')
    const [row] = await tx
      .insert(questions)
      .values({ productId, askerId: asker.id, sellerId: listing.sellerId, body: input.body })
      .returning({ id: questions.id })
    if (!row) throw new AppError('INTERNAL', 'The question could not be saved')
    await jobs.send(
      'questions.seller-email',
      { sellerId: listing.sellerId },
      { tx, startAfter: config.questions.emailGroupSeconds, singletonKey: listing.sellerId },
    )
    return row.id
  })
}

/** A listing's public Q&A, newest answer first: the asker by first name only (none once their account is erased). */
export async function findPublicQuestions(db: Db, productId: string): Promise<PublicQuestion[]> {
  const rows = await db
    .select({
      id: questions.id,
      askerName: users.name,
      askerErased: users.erasedAt,
      body: questions.body,
      answer: questions.answer,
      createdAt: questions.createdAt,
      answeredAt: questions.answeredAt,
    })
    .from(questions)
    .innerJoin(users, eq(users.id, questions.askerId))
    .where(and(eq(questions.productId, productId), eq(questions.isPublic, true)))
    .orderBy(desc(questions.answeredAt), asc(questions.id))
    .limit(PUBLIC_QUESTIONS_SHOWN)
  return rows.map((r) => ({
    _id: r.id,
    askerFirstName: r.askerErased ? null : firstName(r.askerName),
    body: r.body,
    answer: r.answer ?? '',
    askedAt: r.createdAt.toISOString(),
    answeredAt: (r.answeredAt ?? r.createdAt).toISOString(),
  }))
}

/** Whether a listing is there for everyone (its public Q&A is asked for by id): 404 otherwise. */
export async function assertListed(db: Db, productId: string): Promise<void> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(and(eq(products.id, productId), isNull(products.removedAt), isNull(users.disabledAt)))
  if (!row) throw notFound('Product')
}

/** Questions waiting for the seller's answer (blocked askers' left out). */
const unansweredOf = (sellerId: string) =>
  and(
    eq(questions.sellerId, sellerId),
    isNull(questions.answer),
    sql`not exists (select 1 from ${questionBlocks} qb where qb.seller_id = ${questions.sellerId}
      and qb.asker_id = ${questions.askerId})`,
  )

export async function countUnanswered(db: Db, seller: SessionUser): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(questions)
    .where(unansweredOf(seller.id))
  return row?.n ?? 0
}

/**
 * The caller's questions: as a seller, those about their listings (unanswered first, then newest), or those they
 * asked. The seller sees the asker's first name only; the asker never sees whether they were blocked here.
 */
export async function findQuestions(db: Db, caller: SessionUser, role: QuestionRole): Promise<QuestionList> {
  const asSeller = role === 'seller'
  const rows = await db
    .select({
      id: questions.id,
      productId: questions.productId,
      productName: products.name,
      askerName: users.name,
      askerErased: users.erasedAt,
      body: questions.body,
      answer: questions.answer,
      isPublic: questions.isPublic,
      createdAt: questions.createdAt,
      answeredAt: questions.answeredAt,
      blocked: sql<boolean>`exists (select 1 from ${questionBlocks} qb where qb.seller_id = ${questions.sellerId}
        and qb.asker_id = ${questions.askerId})`,
    })
    .from(questions)
    .innerJoin(products, eq(products.id, questions.productId))
    .innerJoin(users, eq(users.id, questions.askerId))
    .where(asSeller ? eq(questions.sellerId, caller.id) : eq(questions.askerId, caller.id))
    .orderBy(
      ...(asSeller ? [sql`${questions.answer} is not null`] : []),
      desc(questions.createdAt),
      asc(questions.id),
    )
    .limit(LIST_LIMIT)
  const items: Question[] = rows.map((r) => ({
    _id: r.id,
    productId: r.productId,
    productName: r.productName,
    askerFirstName: r.askerErased ? null : firstName(r.askerName),
    body: r.body,
    answer: r.answer,
    public: r.isPublic,
    askedAt: r.createdAt.toISOString(),
    answeredAt: r.answeredAt?.toISOString() ?? null,
    blocked: asSeller ? r.blocked : false,
  }))
  return { items, unanswered: asSeller ? await countUnanswered(db, caller) : 0 }
}

/** The question as its seller may act on it: 404 for anyone else (it does not exist for them). */
async function sellersQuestion(tx: Db, seller: SessionUser, questionId: string) {
  const [row] = await tx.select().from(questions).where(eq(questions.id, questionId)).for('update')
  if (!row || row.sellerId !== seller.id) throw notFound('Question')
  return row
}

/**
 * The seller answers (or changes their answer, or whether it is public). The asker is emailed the first answer, in
 * the same transaction; a change later is not emailed again. Public answers show on the listing at once (the public
 * cache follows the database: migration 0047's triggers).
 */
export async function answerQuestion(
  ctx: Pick<AppContext, 'db' | 'mail'>,
  seller: SessionUser,
  questionId: string,
  input: QuestionAnswer,
): Promise<number> {
  refuseOffPlatform(input.answer, 'answer')
  return ctx.db.transaction(async (tx) => {
    const question = await sellersQuestion(tx, seller, questionId)
    const firstAnswer = question.answer === null
    const updated = await tx
      .update(questions)
      .set({
        answer: input.answer,
        isPublic: input.public,
        answeredAt: question.answeredAt ?? sql`now()`,
        sellerEmailPending: false,
        updatedAt: new Date(),
      })
      .where(eq(questions.id, questionId))
      .returning({ id: questions.id })
    if (firstAnswer) {
      const [listing] = await tx
        .select({ name: products.name })
        .from(products)
        .where(eq(products.id, question.productId))
      await ctx.mail.queue(tx, {
        to: { userId: question.askerId },
        template: 'question-answered',
        data: {
          productName: listing?.name ?? 'the laptop',
          question: question.body,
          answer: input.answer,
          isPublic: input.public,
          path: paths.product(question.productId),
        },
      })
    }
    return updated.length
  })
}

/** The seller takes no more questions from this question's asker (a repeat changes nothing: 0). */
export async function blockAsker(db: Db, seller: SessionUser, questionId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const question = await sellersQuestion(tx, seller, questionId)
    const inserted = await tx
      .insert(questionBlocks)
      .values({ sellerId: seller.id, askerId: question.askerId })
      .onConflictDoNothing()
      .returning({ askerId: questionBlocks.askerId })
    // Nothing left to tell the seller about this asker.
    await tx
      .update(questions)
      .set({ sellerEmailPending: false })
      .where(
        and(
          eq(questions.sellerId, seller.id),
          eq(questions.askerId, question.askerId),
          eq(questions.sellerEmailPending, true),
        ),
      )
    return inserted.length
  })
}

/** The seller takes this question's asker's questions again (0 when they were not blocked). */
export async function unblockAsker(db: Db, seller: SessionUser, questionId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const question = await sellersQuestion(tx, seller, questionId)
    const deleted = await tx
      .delete(questionBlocks)
      .where(and(eq(questionBlocks.sellerId, seller.id), eq(questionBlocks.askerId, question.askerId)))
      .returning({ askerId: questionBlocks.askerId })
    return deleted.length
  })
}

/**
 * The `questions.seller-email` job: one email to the seller quoting every question of theirs not yet told (those of
 * the last QUESTION_EMAIL_GROUP_SECONDS, or more while the mail was down), oldest first, following the bookings'
 * grouped email. The questions are marked told in the transaction that queues the email, so a repeat sends nothing
 * and a crash before the commit leaves them for the retry. Returns how many questions the email tells.
 */
export async function sendQuestionsEmail(
  ctx: Pick<AppContext, 'db' | 'mail' | 'jobs'>,
  sellerId: string,
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    // A question that found this job waiting (and so queued none) holds this lock until it commits.
    await ctx.jobs.lockSingleton(tx, 'questions.seller-email', sellerId)
    const pending = await tx
      .select({
        id: questions.id,
        productName: products.name,
        askerName: users.name,
        body: questions.body,
      })
      .from(questions)
      .innerJoin(products, eq(products.id, questions.productId))
      .innerJoin(users, eq(users.id, questions.askerId))
      .where(and(eq(questions.sellerId, sellerId), eq(questions.sellerEmailPending, true)))
      .orderBy(asc(questions.createdAt), asc(questions.id))
    if (pending.length === 0) return 0
    await tx
      .update(questions)
      .set({ sellerEmailPending: false })
      .where(
        inArray(
          questions.id,
          pending.map((q) => q.id),
        ),
      )
    const listed = pending.slice(0, EMAILED_QUESTIONS)
    await ctx.mail.queue(tx, {
      to: { userId: sellerId },
      template: 'question-received',
      data: {
        questions: listed.map((q) => ({
          productName: q.productName,
          askerFirstName: firstName(q.askerName),
          preview: q.body.length > 300 ? `${q.body.slice(0, 300)}…` : q.body,
        })),
        more: pending.length - listed.length,
      },
    })
    return pending.length
  })
}

export function registerQuestionJobs(ctx: Pick<AppContext, 'db' | 'mail' | 'jobs'>) {
  ctx.jobs.work('questions.seller-email', async (job) => {
    await sendQuestionsEmail(ctx, job.data.sellerId)
  })
}

/**
 * Erasure (server/modules/account): what the person wrote, as asker or seller, stays for the other side without the
 * contact details in it, like their messages; their blocks, made or received, go.
 */
export async function eraseQuestionsOf(tx: Db, userId: string): Promise<void> {
  const asked = await tx
    .select({ id: questions.id, body: questions.body })
    .from(questions)
    .where(eq(questions.askerId, userId))
  for (const q of asked) {
    const masked = maskContactDetails(q.body).slice(0, 1000)
    if (masked !== q.body) await tx.update(questions).set({ body: masked }).where(eq(questions.id, q.id))
  }
  const answered = await tx
    .select({ id: questions.id, answer: questions.answer })
    .from(questions)
    .where(eq(questions.sellerId, userId))
  for (const q of answered) {
    if (q.answer === null) continue
    const masked = maskContactDetails(q.answer).slice(0, 2000)
    if (masked !== q.answer) await tx.update(questions).set({ answer: masked }).where(eq(questions.id, q.id))
  }
  await tx.delete(questionBlocks).where(eq(questionBlocks.sellerId, userId))
  await tx.delete(questionBlocks).where(eq(questionBlocks.askerId, userId))
  // Nothing more is emailed to them about questions.
  await tx
    .update(questions)
    .set({ sellerEmailPending: false })
    .where(and(eq(questions.sellerId, userId), eq(questions.sellerEmailPending, true)))
}
