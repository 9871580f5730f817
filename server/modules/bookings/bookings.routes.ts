import { Booking, BookingList, BookingsQuery, NewBooking } from '#contract/bookings'
import { IdParams, Inserted } from '#contract/common'
import { ErrorBody } from '#contract/errors'
import type { AppInstance } from '#server/app'
import { requireUser } from '#server/lib/session'
import { createBooking, findBookings, getBooking } from './bookings.service'

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody }

export async function bookingRoutes(app: AppInstance) {
  const { db } = app.ctx

  app.post(
    '/bookings',
    {
      schema: {
        tags: ['bookings'],
        summary: 'Book a laptop (price, name and image come from the listing; the buyer from the session)',
        body: NewBooking,
        response: { 201: Inserted, ...errors },
      },
    },
    async (req, reply) => {
      const buyer = await requireUser(req)
      const id = await createBooking(db, buyer, req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/bookings',
    {
      schema: {
        tags: ['bookings'],
        summary: "A buyer's bookings (your own, or anyone's for an admin)",
        querystring: BookingsQuery,
        response: { 200: BookingList, ...errors },
      },
    },
    async (req) => findBookings(db, await requireUser(req), req.query.email),
  )

  app.get(
    '/bookings/:id',
    {
      schema: {
        tags: ['bookings'],
        summary: "One booking, for its buyer, the listing's seller, or an admin",
        params: IdParams,
        response: { 200: Booking, ...errors },
      },
    },
    async (req) => getBooking(db, await requireUser(req), req.params.id),
  )
}
