import multipart from '@fastify/multipart'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { IdParams, Inserted, Modified } from '#contract/common'
import { UPLOAD_LIMITS, Upload } from '#contract/products'
import {
  AdminReturnList,
  BookingReturn,
  DecideReturnBody,
  DeclineReturnBody,
  OpenReturnBody,
  ReturnBackBody,
  ReturnsQuery,
} from '#contract/returns'
import { audited } from '#server/lib/audit'
import { ERRORS, errorResponses } from '#server/lib/error-responses'
import { AppError } from '#server/lib/errors'
import { caller, role, signedIn } from '#server/lib/guard'
import { lockDeal } from '#server/modules/bookings'
import { countPhotoUpload, createUpload, readPhotoFile } from '#server/modules/uploads'
import {
  acceptReturn,
  answerReturnBack,
  decideReturn,
  declineReturn,
  findReturns,
  getBookingReturn,
  openReturn,
  returnWindowEnd,
} from './returns.service'
import { returnsDeps } from './returns-deps'

// Returns: the buyer opens one on their booking, the seller answers and checks what came back, admins decide those
// the seller declined. Someone who may not see the booking gets 404, a side who may not take this step 403, a step
// in the wrong stage or status 409.
export const returnRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, storage, counters } = app.ctx
  const deps = returnsDeps(app.ctx)
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 0, parts: 2, headerPairs: 100 },
  })

  app.get(
    '/bookings/:id/return',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['returns'],
        summary:
          "A booking's return (its buyer, the listing's seller, an admin), and until when the buyer may open one (the inspection window, INSPECTION_DAYS after the handover or delivery)",
        params: IdParams,
        response: { 200: BookingReturn, ...ERRORS },
      },
    },
    async (req) => getBookingReturn(db, caller(req), req.params.id, config.deal.inspectionDays),
  )

  app.post(
    '/bookings/:id/return-photos',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['returns'],
        summary:
          'The buyer, within the inspection window: upload one photo for a return (multipart field "file"; JPEG, PNG or WebP, ≤ 10 MB, ≤ 40 MP), checked and resized like listing photos',
        params: IdParams,
        consumes: ['multipart/form-data'],
        response: { 201: Upload, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (req, reply) => {
      const buyer = caller(req)
      // Only a buyer who may open a return now uploads for it (checked before the picture is worked on).
      const deal = await db.transaction((tx) => lockDeal(tx, buyer, req.params.id))
      if (!deal.isBuyer) throw new AppError('FORBIDDEN', 'Only the buyer can add photos to a return')
      if (!returnWindowEnd(deal.booking, config.deal.inspectionDays)) {
        throw new AppError('CONFLICT', 'You cannot return it: it is not within its days to inspect it')
      }
      await countPhotoUpload(counters, config.uploadsPerMinute, req.ip)
      const data = await readPhotoFile(req)
      return reply
        .code(201)
        .send(await createUpload(db, storage, buyer, data, config.unattachedPhotosPerSeller))
    },
  )

  app.post(
    '/bookings/:id/return',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['returns'],
        summary:
          'The buyer, within the inspection window of a handed-over sale: return it as not as described (reason, the checklist item that failed, photos); the seller answers',
        params: IdParams,
        body: OpenReturnBody,
        response: { 201: Inserted, ...ERRORS },
      },
    },
    async (req, reply) => {
      const id = await openReturn(db, deps, caller(req), req.params.id, req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.put(
    '/bookings/:id/return/accept',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['returns'],
        summary:
          "The listing's seller accepts a requested return: a shipped sale's return label is bought at the seller's cost; a met one is handed back",
        params: IdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => ({
      acknowledged: true,
      modifiedCount: await acceptReturn(db, deps, caller(req), req.params.id),
    }),
  )

  app.put(
    '/bookings/:id/return/decline',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['returns'],
        summary: "The listing's seller declines a requested return, with a reason: an admin decides",
        params: IdParams,
        body: DeclineReturnBody,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => ({
      acknowledged: true,
      modifiedCount: await declineReturn(db, deps, caller(req), req.params.id, req.body),
    }),
  )

  app.put(
    '/bookings/:id/return/back',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['returns'],
        summary:
          "The listing's seller has the laptop back (delivered by the carrier, or handed back): as sent (the buyer is refunded through the processor), or not, with what is different (an admin decides)",
        params: IdParams,
        body: ReturnBackBody,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => ({
      acknowledged: true,
      modifiedCount: await answerReturnBack(db, deps, caller(req), req.params.id, req.body),
    }),
  )

  app.get(
    '/returns',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['returns'],
        summary:
          'Admin: returns waiting for a decision (the seller declined, or has not answered), oldest first; or all, newest first',
        querystring: ReturnsQuery,
        response: { 200: AdminReturnList, ...ERRORS },
      },
    },
    async (req) => findReturns(db, req.query.status),
  )

  app.put(
    '/returns/:id/decide',
    {
      config: { guard: role('admin'), audit: 'return.decide' },
      schema: {
        tags: ['returns'],
        summary:
          'Admin: accept a return the seller declined or has not answered, or refuse it (the sale completes), with a reason both sides see; for a return parcel the carrier lost (failure, return_to_sender), accept refunds the buyer and refuse releases the sale to the seller',
        params: IdParams,
        body: DecideReturnBody,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await audited(req, `return:${req.params.id}`, (tx) =>
        decideReturn(tx, deps, caller(req), req.params.id, req.body),
      )
      return { acknowledged: true, modifiedCount }
    },
  )
}
