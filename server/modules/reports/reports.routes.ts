import { IdParams, Inserted, Modified } from '#contract/common'
import { ErrorBody } from '#contract/errors'
import { NewReport, ReportList } from '#contract/reports'
import type { AppInstance } from '#server/app'
import { requireRole, requireUser } from '#server/lib/session'
import { createReport, findOpenReports, resolveReport } from './reports.service'

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody }

export async function reportRoutes(app: AppInstance) {
  const { db, cache } = app.ctx

  app.post(
    '/reports',
    {
      schema: {
        tags: ['reports'],
        summary: 'Report a listing, with a reason (any signed-in user)',
        body: NewReport,
        response: { 201: Inserted, ...errors },
      },
    },
    async (req, reply) => {
      const id = await createReport(db, await requireUser(req), req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/reports',
    {
      schema: {
        tags: ['reports'],
        summary: 'Admin: open reports, newest first',
        response: { 200: ReportList, ...errors },
      },
    },
    async (req) => {
      await requireRole(req, 'admin')
      return findOpenReports(db)
    },
  )

  for (const action of ['dismiss', 'remove'] as const) {
    app.put(
      `/reports/:id/${action}`,
      {
        schema: {
          tags: ['reports'],
          summary:
            action === 'dismiss'
              ? 'Admin: dismiss a report'
              : 'Admin: remove the reported listing (closes its reports)',
          params: IdParams,
          response: { 200: Modified, ...errors },
        },
      },
      async (req) => {
        const admin = await requireRole(req, 'admin')
        const modifiedCount = await resolveReport(db, admin, req.params.id, action)
        if (action === 'remove') cache.clear()
        return { acknowledged: true, modifiedCount }
      },
    )
  }
}
