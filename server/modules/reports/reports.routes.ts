import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { IdParams, Inserted, Modified } from '#contract/common'
import { NewReport, ReportList } from '#contract/reports'
import { audited } from '#server/lib/audit'
import { ERRORS } from '#server/lib/error-responses'
import { caller, role, signedIn } from '#server/lib/guard'
import { createReport, findOpenReports, resolveReport } from './reports.service'

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
        response: { 201: Inserted, ...ERRORS },
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
        response: { 200: ReportList, ...ERRORS },
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
              ? 'Admin: dismiss a report (the reporter is emailed that the listing stays up)'
              : 'Admin: remove the reported listing (closes its reports, each reporter emailed; an open sale of it is refunded in full)',
          params: IdParams,
          response: { 200: Modified, ...ERRORS },
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
