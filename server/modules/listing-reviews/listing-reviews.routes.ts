import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { IdParams, Modified } from '#contract/common'
import {
  ListingReviewQueue,
  RejectListingBody,
  StolenSerialAdded,
  StolenSerialBody,
} from '#contract/listing-reviews'
import { kickAlertMatching } from '#server/lib/alert-events'
import { audited } from '#server/lib/audit'
import { ERRORS } from '#server/lib/error-responses'
import { caller, role } from '#server/lib/guard'
import { approveListing, findReviewQueue, markSerialStolen, rejectListing } from './listing-reviews.service'

export const listingReviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx
  const admin = { guard: role('admin') }

  app.get(
    '/listing-reviews',
    {
      config: admin,
      schema: {
        tags: ['listing reviews'],
        summary:
          'Admin: listings waiting for review (a seller’s first listings, serials another seller listed or sold), oldest first, with the counts',
        response: { 200: ListingReviewQueue, ...ERRORS },
      },
    },
    async () => findReviewQueue(db),
  )

  app.put(
    '/listing-reviews/:id/approve',
    {
      config: { ...admin, audit: 'listing.approve' },
      schema: {
        tags: ['listing reviews'],
        summary:
          'Admin: approve a listing under review; it goes into search and can be booked, saved searches take it as new and its seller is emailed',
        params: IdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await audited(req, `product:${req.params.id}`, (tx) =>
        approveListing({ ...app.ctx, db: tx }, caller(req), req.params.id),
      )
      // Saved searches are matched by a job once the approval has committed; the minute's sweep catches a lost kick.
      kickAlertMatching(app.ctx.jobs).catch((err) => req.log.warn({ err }, 'Could not queue alert matching'))
      return { acknowledged: true, modifiedCount }
    },
  )

  app.put(
    '/listing-reviews/:id/reject',
    {
      config: { ...admin, audit: 'listing.reject' },
      schema: {
        tags: ['listing reviews'],
        summary:
          'Admin: reject a listing under review with a reason (the rule and what to change), emailed to the seller, who may edit it and send it back',
        params: IdParams,
        body: RejectListingBody,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => ({
      acknowledged: true,
      modifiedCount: await audited(req, `product:${req.params.id}`, (tx) =>
        rejectListing({ ...app.ctx, db: tx }, caller(req), req.params.id, req.body.reason),
      ),
    }),
  )

  app.post(
    '/stolen-serials',
    {
      config: { ...admin, audit: 'serial.mark_stolen' },
      schema: {
        tags: ['listing reviews'],
        summary:
          'Admin: mark a serial number reported stolen (typed, or a listing’s); it cannot be listed again and unsold listings of it leave the market',
        body: StolenSerialBody,
        response: { 201: StolenSerialAdded, ...ERRORS },
      },
    },
    // The target is the listing when one is named; a typed serial is never written to the log.
    async (req, reply) =>
      reply
        .code(201)
        .send(
          await audited(req, req.body.product_id ? `product:${req.body.product_id}` : null, (tx) =>
            markSerialStolen({ ...app.ctx, db: tx }, caller(req), req.body),
          ),
        ),
  )
}
