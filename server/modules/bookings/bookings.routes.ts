import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  Booking,
  BookingList,
  BookingsQuery,
  HandoverBody,
  HoldAnswer,
  HoldBody,
  HoldRefused,
  NewBooking,
  ProblemBody,
} from '#contract/bookings'
import { IdParams, Inserted, Modified } from '#contract/common'
import { DeliveryChoiceBody, RateQuoteAnswer, RateQuoteBody } from '#contract/delivery'
import { ErrorBody } from '#contract/errors'
import { ReceivedBody } from '#contract/handover'
import { ERRORS, errorResponses } from '#server/lib/error-responses'
import { caller, signedIn } from '#server/lib/guard'
import { setPagingHeaders } from '#server/lib/paging'
import { createBooking, findBookings, getBooking } from './bookings.service'
import { cancelBooking, confirmReceived, markHandedOver, reportProblem } from './deal.service'
import { chooseDelivery, quoteBookingRates } from './delivery-choice.service'
import { holdBooking } from './hold.service'

export const bookingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mail } = app.ctx
  const { autoCompleteDays, inspectionDays } = config.deal

  app.post(
    '/bookings',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary: 'Book a laptop (price, name and image come from the listing; the buyer from the session)',
        body: NewBooking,
        response: { 201: Inserted, ...ERRORS, ...errorResponses(429) },
      },
    },
    async (req, reply) => {
      const id = await createBooking(db, caller(req), req.body, {
        jobs: app.ctx.jobs,
        openBookingsPerBuyer: config.openBookingsPerBuyer,
        emailGroupSeconds: config.bookingEmailGroupSeconds,
      })
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/bookings',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary: "A buyer's bookings (your own, or anyone's for an admin)",
        querystring: BookingsQuery,
        response: { 200: BookingList, ...ERRORS },
      },
    },
    async (req, reply) => {
      const page = await findBookings(
        db,
        caller(req),
        req.query.email,
        req.query,
        autoCompleteDays,
        inspectionDays,
      )
      setPagingHeaders(req, reply, page)
      return page.items
    },
  )

  app.get(
    '/bookings/:id',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary: "One booking, for its buyer, the listing's seller, or an admin",
        params: IdParams,
        response: { 200: Booking, ...ERRORS },
      },
    },
    async (req) => getBooking(db, caller(req), req.params.id, autoCompleteDays, inspectionDays),
  )

  app.post(
    '/bookings/:id/hold',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary:
          'The buyer opens the payment page: the laptop is held for this booking while they pay (HOLD_SECONDS). Once a hold of the booking has ended, only `{ "again": true }` ("Hold it again") takes another (409 HOLD_ENDED otherwise)',
        params: IdParams,
        body: HoldBody,
        response: { 200: HoldAnswer, ...ERRORS, 409: HoldRefused.or(ErrorBody), ...errorResponses(429) },
      },
    },
    async (req, reply) => {
      const hold = await holdBooking(db, caller(req), req.params.id, config.deal, req.ip, {
        again: req.body?.again === true,
      })
      const holdUntil = hold.holdUntil.toISOString()
      if (hold.state === 'held') return { holdUntil }
      return reply.code(409).send({
        error:
          hold.state === 'ended'
            ? {
                code: 'HOLD_ENDED' as const,
                message:
                  'Your hold on this laptop has ended. Hold it again to pay for it, if nobody else has.',
              }
            : {
                code: 'RESERVED' as const,
                message:
                  'Another buyer is paying for this laptop. It is reserved until they finish or their time runs out.',
              },
        holdUntil,
      })
    },
  )

  // The buyer's delivery before paying: rates to their address, then meet in person or one of those rates.
  app.post(
    '/bookings/:id/shipping-rates',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary:
          "The buyer of an unpaid booking of a shipped laptop: the carrier's rates to their address from where the laptop ships, for its parcel, cheapest first",
        params: IdParams,
        body: RateQuoteBody,
        response: { 200: RateQuoteAnswer, ...ERRORS },
      },
    },
    async (req) => quoteBookingRates(app.ctx, caller(req), req.params.id, req.body.address),
  )

  app.put(
    '/bookings/:id/delivery',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary:
          'The buyer of an unpaid booking chooses how the laptop reaches them: meet in person, or shipped to their address at one of the quoted rates (its price is read from the carrier)',
        params: IdParams,
        body: DeliveryChoiceBody,
        response: { 200: Booking, ...ERRORS },
      },
    },
    async (req) =>
      chooseDelivery(app.ctx, caller(req), req.params.id, req.body, { autoCompleteDays, inspectionDays }),
  )

  // PUT /bookings/:id/cancel is the seller cancelling a paid sale (payments.routes.ts); this is the buyer's own
  // unpaid booking.
  app.put(
    '/bookings/:id/cancel-booking',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary:
          'The buyer cancels their booking before paying: it reads as cancelled, their hold ends, the seller is emailed',
        params: IdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await cancelBooking(db, caller(req), req.params.id, mail)
      return { acknowledged: true, modifiedCount }
    },
  )

  // The deal after payment: handover, receipt, problems. Someone who may not see the booking gets 404,
  // a party who may not take this step 403, and a step in the wrong stage 409 naming the stage.
  app.put(
    '/bookings/:id/handed-over',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary: "The listing's seller: the buyer has the laptop (paid bookings; optional note)",
        params: IdParams,
        body: HandoverBody,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await markHandedOver(
        db,
        caller(req),
        req.params.id,
        req.body,
        mail,
        autoCompleteDays,
      )
      return { acknowledged: true, modifiedCount }
    },
  )

  app.put(
    '/bookings/:id/received',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary:
          'The buyer: received, as described (after handover), with every item of the handover checklist ticked; the sale is completed and the answers kept on the deal',
        params: IdParams,
        body: ReceivedBody,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await confirmReceived(
        db,
        caller(req),
        req.params.id,
        mail,
        config.payouts.fee,
        req.body,
      )
      return { acknowledged: true, modifiedCount }
    },
  )

  app.post(
    '/bookings/:id/problem',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary: 'The buyer: report a problem with a paid sale that is not completed (opens a dispute)',
        params: IdParams,
        body: ProblemBody,
        response: { 201: Inserted, ...ERRORS },
      },
    },
    async (req, reply) => {
      const id = await reportProblem(db, caller(req), req.params.id, req.body, mail)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )
}
