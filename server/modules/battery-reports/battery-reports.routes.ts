import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { BATTERY_REPORT_MAX_BYTES, BatteryReportFacts, BatteryReportFile } from '#contract/battery-reports'
import { IdParams } from '#contract/common'
import { ERRORS } from '#server/lib/error-responses'
import { AppError } from '#server/lib/errors'
import { caller, role } from '#server/lib/guard'
import { addBatteryReport, getLatestBatteryReport, type UploadedFile } from './battery-reports.service'

const tooLarge = `A battery report is at most ${BATTERY_REPORT_MAX_BYTES / 1024 / 1024} MB: upload the report file itself`

/** The one file of the upload (field "file"), or a 400 that says what is wrong with the request. */
async function readReportFile(req: FastifyRequest): Promise<UploadedFile> {
  if (!req.isMultipart()) {
    throw new AppError('VALIDATION', 'Send the report as multipart/form-data in a "file" field', {
      file: 'Choose the battery report file',
    })
  }
  try {
    const file = await req.file()
    if (file?.fieldname !== 'file') {
      throw new AppError('VALIDATION', 'Choose the battery report file', {
        file: 'Choose the battery report file',
      })
    }
    const bytes = await file.toBuffer()
    return { bytes, fileName: file.filename ?? '' }
  } catch (err) {
    if (err instanceof AppError) throw err
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('VALIDATION', tooLarge, { file: tooLarge })
    }
    throw new AppError('VALIDATION', 'The upload could not be read', { file: 'The upload could not be read' })
  }
}

export const batteryReportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx
  await app.register(multipart, {
    limits: { fileSize: BATTERY_REPORT_MAX_BYTES, files: 1, fields: 0, parts: 2, headerPairs: 100 },
  })

  app.post(
    '/products/:id/battery-report',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['products'],
        summary:
          'Seller: upload the laptop\'s own battery report (multipart field "file": Windows powercfg /batteryreport HTML, macOS system_profiler SPPowerDataType or Linux upower -i text); the listing then shows the facts read from it. The file stays private.',
        consumes: ['multipart/form-data'],
        params: IdParams,
        response: {
          200: BatteryReportFacts,
          ...ERRORS,
        },
      },
    },
    async (req) => addBatteryReport(db, caller(req), req.params.id, () => readReportFile(req)),
  )

  app.get(
    '/products/:id/battery-report',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['products'],
        summary:
          "Admin: the battery report file behind the listing's figures, as the seller uploaded it (the latest one); 404 when the figures were typed",
        params: IdParams,
        response: { 200: BatteryReportFile, ...ERRORS },
      },
    },
    async (req) => getLatestBatteryReport(db, req.params.id),
  )
}
