import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Deleted, IdParams, Inserted, Modified } from '#contract/common'
import {
  NewQuestion,
  PublicQuestionList,
  QuestionAnswer,
  QuestionList,
  QuestionsQuery,
  UnansweredQuestions,
} from '#contract/questions'
import { sendJson } from '#server/lib/error-handler'
import { ERRORS, errorResponses } from '#server/lib/error-responses'
import { caller, signedIn } from '#server/lib/guard'
import { SENDS_KEPT_JSON } from '#server/lib/kept-json'
import {
  answerQuestion,
  askQuestion,
  assertListed,
  blockAsker,
  countUnanswered,
  findPublicQuestions,
  findQuestions,
  unblockAsker,
} from './questions.service'

// Someone other than a question's seller gets 404 for it (it does not exist for them).
export const questionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, cache } = app.ctx

  app.post(
    '/products/:id/questions',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['questions'],
        summary:
          "Ask a listing's seller a question (a confirmed email; not your own listing; a few a day; no off-platform payment or contact details)",
        params: IdParams,
        body: NewQuestion,
        response: { 201: Inserted, ...ERRORS, ...errorResponses(429) },
      },
    },
    async (req, reply) => {
      const id = await askQuestion(app.ctx, caller(req), req.params.id, req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/products/:id/questions',
    {
      ...SENDS_KEPT_JSON,
      schema: {
        tags: ['questions'],
        summary: "A listing's public questions and answers, newest answer first (askers by first name)",
        params: IdParams,
        response: { 200: PublicQuestionList, ...errorResponses(400, 404) },
      },
    },
    // Kept with the public answers: a public answer given, changed or withdrawn moves the public data version.
    async (req, reply) => {
      const id = req.params.id
      const body = await cache.get(`questions:${id}`, async () => {
        await assertListed(db, id)
        return findPublicQuestions(db, id)
      })
      return sendJson(reply, body)
    },
  )

  app.get(
    '/questions',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['questions'],
        summary:
          'Questions about your listings (role=seller, unanswered first) or questions you asked (role=asker)',
        querystring: QuestionsQuery,
        response: { 200: QuestionList, ...ERRORS },
      },
    },
    async (req) => findQuestions(db, caller(req), req.query.role),
  )

  app.get(
    '/questions/unanswered',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['questions'],
        summary: 'How many questions about your listings wait for your answer',
        response: { 200: UnansweredQuestions, ...ERRORS },
      },
    },
    async (req) => ({ count: await countUnanswered(db, caller(req)) }),
  )

  app.put(
    '/questions/:id/answer',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['questions'],
        summary:
          "The listing's seller answers a question, shown to its asker and, when public, on the listing (or changes the answer)",
        params: IdParams,
        body: QuestionAnswer,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await answerQuestion(app.ctx, caller(req), req.params.id, req.body)
      return { acknowledged: true, modifiedCount }
    },
  )

  app.post(
    '/questions/:id/block',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['questions'],
        summary: "The listing's seller takes no more questions from this question's asker",
        params: IdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await blockAsker(db, caller(req), req.params.id)
      return { acknowledged: true, modifiedCount }
    },
  )

  app.delete(
    '/questions/:id/block',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['questions'],
        summary: "The listing's seller takes this question's asker's questions again",
        params: IdParams,
        response: { 200: Deleted, ...ERRORS },
      },
    },
    async (req) => {
      const deletedCount = await unblockAsker(db, caller(req), req.params.id)
      return { acknowledged: true, deletedCount }
    },
  )
}
