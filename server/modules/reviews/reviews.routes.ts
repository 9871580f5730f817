import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { IdParams, Inserted, Modified } from '#contract/common'
import {
  MyReviews,
  NewReview,
  NewReviewReport,
  ReportedReviewList,
  SellerIdParams,
  SellerPage,
  SellerReviews,
} from '#contract/reviews'
import { audited } from '#server/lib/audit'
import { ERRORS, errorResponses } from '#server/lib/error-responses'
import { caller, role, signedIn } from '#server/lib/guard'
import {
  createReview,
  findMyReviews,
  findReportedReviews,
  findSellerPage,
  findSellerReviews,
  moderateReview,
  reportReview,
} from './reviews.service'

export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.post(
    '/bookings/:id/review',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['reviews'],
        summary:
          "Review the other side of a completed sale, once (the booking's buyer or the listing's seller)",
        params: IdParams,
        body: NewReview,
        response: { 201: Inserted, ...ERRORS },
      },
    },
    async (req, reply) => {
      const id = await createReview(db, caller(req), req.params.id, req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/sellers/:id/reviews',
    {
      schema: {
        tags: ['reviews'],
        summary: "A seller's published rating and buyers' reviews, newest first (anyone)",
        params: SellerIdParams,
        response: { 200: SellerReviews, ...errorResponses(400, 404) },
      },
    },
    async (req) => findSellerReviews(db, req.params.id),
  )

  app.get(
    '/sellers/:id/page',
    {
      schema: {
        tags: ['reviews'],
        summary:
          "A seller's public page: name, badge, rating, available laptops and published reviews (anyone)",
        params: SellerIdParams,
        response: { 200: SellerPage, ...errorResponses(400, 404) },
      },
    },
    async (req) => findSellerPage(db, req.params.id),
  )

  app.get(
    '/reviews/mine',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['reviews'],
        summary: 'The reviews the caller wrote, and the published ones about them',
        response: { 200: MyReviews, ...ERRORS },
      },
    },
    async (req) => findMyReviews(db, caller(req)),
  )

  app.post(
    '/reviews/:id/report',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['reviews'],
        summary: 'Report a review, with a reason (any signed-in user)',
        params: IdParams,
        body: NewReviewReport,
        response: { 201: Inserted, ...ERRORS },
      },
    },
    async (req, reply) => {
      const id = await reportReview(db, caller(req), req.params.id, req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/reviews/reported',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['reviews'],
        summary: 'Admin: reviews with open reports, most recently reported first',
        response: { 200: ReportedReviewList, ...ERRORS },
      },
    },
    async () => findReportedReviews(db),
  )

  for (const action of ['remove', 'dismiss'] as const) {
    app.put(
      `/reviews/:id/${action}`,
      {
        config: { guard: role('admin'), audit: action === 'remove' ? 'review.remove' : 'review.dismiss' },
        schema: {
          tags: ['reviews'],
          summary:
            action === 'remove'
              ? "Admin: remove a review (it leaves the seller's rating; closes its reports)"
              : "Admin: dismiss a review's open reports",
          params: IdParams,
          response: { 200: Modified, ...ERRORS },
        },
      },
      async (req) => {
        const modifiedCount = await audited(req, `review:${req.params.id}`, (tx) =>
          moderateReview(tx, caller(req), req.params.id, action),
        )
        return { acknowledged: true, modifiedCount }
      },
    )
  }
}
