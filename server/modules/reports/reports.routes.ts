import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { IdParams, Inserted, Modified } from '#contract/common'
import { ErrorBody } from '#contract/errors'
import { NewReport, ReportList } from '#contract/reports'
import { audited } from '#server/lib/audit'
import { caller, role, signedIn } from '#server/lib/guard'
import { createReport, findOpenReports, resolveReport } from './reports.service'

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody }

export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, mail, payments } = app.ctx

  app.post(
    '/reports',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['reports'],
        summary: 'Report a listing, with a reason (any signed-in user)',
        body: NewReport,
        response: { 201: Inserted, ...errors },
      },
    },
    async (req, reply) => {
      const id = await createReport(db, caller(req), req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/reports',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['reports'],
        summary: 'Admin: open reports, newest first',
        response: { 200: ReportList, ...errors },
      },
    },
    async () => findOpenReports(db),
  )

  for (const action of ['dismiss', 'remove'] as const) {
    app.put(
      `/reports/:id/${action}`,
      {
        config: {
          guard: role('admin'),
          audit: action === 'dismiss' ? 'report.dismiss' : 'report.remove_listing',
        },
        schema: {
          tags: ['reports'],
          summary:
            action === 'dismiss'
              ? 'Admin: dismiss a report'
              : 'Admin: remove the reported listing (closes its reports; an open sale of it is refunded in full)',
          params: IdParams,
          response: { 200: Modified, ...errors },
        },
      },
      async (req) => {
        const modifiedCount = await audited(req, `report:${req.params.id}`, (tx) =>
          resolveReport(tx, payments, caller(req), req.params.id, action, mail, config.payouts.fee),
        )
        return { acknowledged: true, modifiedCount }
      },
    )
  }
}
