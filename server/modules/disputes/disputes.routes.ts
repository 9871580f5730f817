import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { DisputeList, DisputesQuery } from '#contract/bookings'
import { IdParams, Inserted, Modified } from '#contract/common'
import { AdminRefundBody } from '#contract/refunds'
import { audited } from '#server/lib/audit'
import { ERRORS } from '#server/lib/error-responses'
import { caller, role } from '#server/lib/guard'
import { returnFirst, returnsDeps } from '#server/modules/returns'
import { findDisputes, refundDispute, releaseDispute } from './disputes.service'

export const disputeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mail, payments: provider } = app.ctx

  app.get(
    '/disputes',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['disputes'],
        summary: 'Admin: problems buyers reported, newest first, with the sale, both sides and its history',
        querystring: DisputesQuery,
        response: { 200: DisputeList, ...ERRORS },
      },
    },
    async (req) => findDisputes(db, req.query.status),
  )

  app.put(
    '/disputes/:id/refund',
    {
      config: { guard: role('admin'), audit: 'dispute.refund' },
      schema: {
        tags: ['disputes'],
        summary:
          'Admin: refund now (through the processor that took the payment), with a reason both sides see on the deal and in their emails; the laptop is not returned (see return-first for a laptop that comes back before the refund)',
        params: IdParams,
        body: AdminRefundBody,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await audited(req, `dispute:${req.params.id}`, (tx) =>
        refundDispute(tx, provider, caller(req), req.params.id, mail, config.payouts.fee, req.body.reason),
      )
      return { acknowledged: true, modifiedCount }
    },
  )

  app.put(
    '/disputes/:id/return-first',
    {
      config: { guard: role('admin'), audit: 'dispute.return_first' },
      schema: {
        tags: ['disputes'],
        summary:
          'Admin: the laptop comes back before any refund. An accepted return opens (a shipped sale gets a return label at the seller’s cost); once the seller confirms it is as sent the buyer is refunded, otherwise the dispute reopens',
        params: IdParams,
        body: AdminRefundBody,
        response: { 201: Inserted, ...ERRORS },
      },
    },
    async (req, reply) => {
      const id = await audited(req, `dispute:${req.params.id}`, (tx) =>
        returnFirst(tx, returnsDeps(app.ctx), caller(req), req.params.id, req.body.reason),
      )
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.put(
    '/disputes/:id/release',
    {
      config: { guard: role('admin'), audit: 'dispute.release' },
      schema: {
        tags: ['disputes'],
        summary: 'Admin: release the sale to the seller (the sale is completed)',
        params: IdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await audited(req, `dispute:${req.params.id}`, (tx) =>
        releaseDispute(tx, caller(req), req.params.id, mail, config.payouts.fee),
      )
      return { acknowledged: true, modifiedCount }
    },
  )
}
