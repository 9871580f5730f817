import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { IdParams, Inserted } from '#contract/common'
import {
  CounterOffer,
  DeclineOffer,
  NewOffer,
  Offer,
  OfferAnswer,
  OfferList,
  OffersQuery,
} from '#contract/offers'
import { ERRORS, errorResponses } from '#server/lib/error-responses'
import { caller, signedIn } from '#server/lib/guard'
import { findOffers, getOffer } from './offers.queries'
import { acceptOffer, counterOffer, declineOffer, makeOffer, withdrawOffer } from './offers.service'

// Someone who is neither the buyer nor the listing's seller gets 404 for an offer, a party who may not take a
// step 403, and a step in the wrong state 409 naming the state.
export const offerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.post(
    '/products/:id/offers',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['offers'],
        summary:
          'Offer a price for a listing on sale (under the asking price; the seller accepts, declines or counters)',
        params: IdParams,
        body: NewOffer,
        response: { 201: Inserted, ...ERRORS, ...errorResponses(429) },
      },
    },
    async (req, reply) => {
      const id = await makeOffer(app.ctx, caller(req), req.params.id, req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/offers',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['offers'],
        summary: 'Your offers as a buyer (role=buyer), or the offers on your listings (role=seller)',
        querystring: OffersQuery,
        response: { 200: OfferList, ...ERRORS },
      },
    },
    async (req) => findOffers(db, caller(req), req.query),
  )

  app.get(
    '/offers/:id',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['offers'],
        summary: "One offer and its thread, for its buyer or the listing's seller",
        params: IdParams,
        response: { 200: Offer, ...ERRORS },
      },
    },
    async (req) => getOffer(db, caller(req), req.params.id),
  )

  app.put(
    '/offers/:id/accept',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['offers'],
        summary:
          'The side the offer waits for accepts it: a booking at the agreed price, held for the buyer while they pay (bookingId)',
        params: IdParams,
        response: { 200: OfferAnswer, ...ERRORS },
      },
    },
    async (req) => acceptOffer(app.ctx, caller(req), req.params.id),
  )

  app.put(
    '/offers/:id/decline',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['offers'],
        summary: 'The seller declines an offer waiting for their answer (optional reason)',
        params: IdParams,
        body: DeclineOffer,
        response: { 200: OfferAnswer, ...ERRORS },
      },
    },
    async (req) => declineOffer(app.ctx, caller(req), req.params.id, req.body),
  )

  app.put(
    '/offers/:id/counter',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['offers'],
        summary:
          'The side the offer waits for counters: the seller between the offer and the asking price, the buyer between theirs and the counter',
        params: IdParams,
        body: CounterOffer,
        response: { 200: OfferAnswer, ...ERRORS },
      },
    },
    async (req) => counterOffer(app.ctx, caller(req), req.params.id, req.body),
  )

  app.put(
    '/offers/:id/withdraw',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['offers'],
        summary: 'The buyer withdraws their open offer',
        params: IdParams,
        response: { 200: OfferAnswer, ...ERRORS },
      },
    },
    async (req) => withdrawOffer(app.ctx, caller(req), req.params.id),
  )
}
