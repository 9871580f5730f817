// The built-in test carrier's HTTP side (only when EASYPOST_API_KEY is unset): the part of EasyPost's API
// the SDK calls here (/test-carrier/v2/shipments, …/buy, /trackers), in EasyPost's shapes and errors, plus
// the label PDFs and a tracking page its objects link to. Hidden from our OpenAPI: it stands in for the
// carrier's servers and is not our API.
import type { FastifyPluginAsync } from 'fastify'
import type { Db } from '#server/db/client'
import { testLabelPdf } from './label-pdf'
import {
  buyShipment,
  createShipment,
  createTracker,
  type EpTracker,
  getShipment,
  getTracker,
  refundShipment,
  TestCarrierError,
  trackerByCode,
} from './test-carrier'

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const hidden = { schema: { hide: true }, config: { rateLimit: false } } as const

// biome-ignore lint/suspicious/noExplicitAny: request bodies in EasyPost's shapes, checked field by field where used
type Loose = Record<string, any>

function asObject(value: unknown): Loose {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : {}
}

export const testCarrierRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.ctx
  const base = config.publicUrl.replace(/\/$/, '')
  // A new tracker's first step, on the clock, queued with the tracker itself.
  const startClock = (tx: Db, tracker: EpTracker) =>
    app.ctx.jobs.send(
      'test-carrier.step',
      { trackerId: tracker.id, from: tracker.status },
      { tx, startAfter: config.shipping.testStepSeconds },
    )

  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof TestCarrierError) return reply.code(err.statusCode).send(err.body())
    const status = (err as { statusCode?: number }).statusCode ?? 500
    return reply.code(status).send({
      error: {
        code: status === 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST',
        message: err instanceof Error ? err.message : 'Error',
        errors: [],
      },
    })
  })

  await app.register(
    async (api) => {
      // EasyPost answers 401 to a request without an API key (HTTP basic, the key as user name).
      api.addHook('onRequest', async (req, reply) => {
        if (!req.headers.authorization?.startsWith('Basic ')) {
          return reply
            .code(401)
            .send({ error: { code: 'APIKEY.REQUIRED', message: 'An API key is required.', errors: [] } })
        }
      })
      api.post('/shipments', hidden, async (req, reply) =>
        reply.code(201).send(await createShipment(db, asObject(asObject(req.body).shipment))),
      )
      api.get<{ Params: { id: string } }>('/shipments/:id', hidden, async (req) =>
        getShipment(db, req.params.id),
      )
      api.post<{ Params: { id: string } }>('/shipments/:id/buy', hidden, async (req) => {
        const bought = await buyShipment(
          db,
          req.params.id,
          asObject(asObject(req.body).rate).id,
          base,
          startClock,
        )
        return bought.shipment
      })
      api.post<{ Params: { id: string } }>('/shipments/:id/refund', hidden, async (req) =>
        refundShipment(db, req.params.id),
      )
      api.post('/trackers', hidden, async (req, reply) =>
        reply.code(201).send(await createTracker(db, asObject(asObject(req.body).tracker), base, startClock)),
      )
      api.get<{ Params: { id: string } }>('/trackers/:id', hidden, async (req) =>
        getTracker(db, req.params.id),
      )
    },
    { prefix: '/v2' },
  )

  app.get<{ Params: { id: string } }>('/labels/:id', hidden, async (req, reply) => {
    const id = req.params.id.replace(/\.pdf$/, '')
    const shipment = asObject(await getShipment(db, id))
    if (!shipment.postage_label)
      throw new TestCarrierError(404, 'NOT_FOUND', 'No label bought for this shipment.')
    const to = asObject(shipment.to_address)
    const from = asObject(shipment.from_address)
    const rate = asObject(shipment.selected_rate)
    const pdf = testLabelPdf([
      `${rate.carrier} ${rate.service}`,
      `Tracking: ${shipment.tracking_code}`,
      '',
      'FROM',
      String(from.name ?? ''),
      `${from.street1 ?? ''} ${from.street2 ?? ''}`.trim(),
      `${from.city ?? ''}, ${from.state ?? ''} ${from.zip ?? ''}`,
      '',
      'TO',
      String(to.name ?? ''),
      `${to.street1 ?? ''} ${to.street2 ?? ''}`.trim(),
      `${to.city ?? ''}, ${to.state ?? ''} ${to.zip ?? ''}`,
    ])
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="label-${shipment.tracking_code}.pdf"`)
      .send(pdf)
  })

  // The carrier's public tracking page the tracker's public_url names, plainly marked as test mode.
  app.get<{ Params: { code: string } }>('/track/:code', hidden, async (req, reply) => {
    const tracker = await trackerByCode(db, req.params.code)
    const rows = (tracker?.tracking_details ?? [])
      .map(
        (d) =>
          `<li><time datetime="${escapeHtml(d.datetime)}">${escapeHtml(d.datetime.replace('T', ' ').slice(0, 16))} UTC</time> — ${escapeHtml(d.message)} <small>(${escapeHtml(d.status)})</small></li>`,
      )
      .reverse()
      .join('')
    const body = tracker
      ? `<p>Tracking number <strong>${escapeHtml(tracker.tracking_code)}</strong> (${escapeHtml(tracker.carrier)}): <strong>${escapeHtml(tracker.status.replace(/_/g, ' '))}</strong></p><ol>${rows}</ol>`
      : '<p>No parcel with this tracking number.</p>'
    return reply
      .code(tracker ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Test mode tracking</title></head><body style="font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem"><h1>Test mode: test carrier tracking</h1><p>This parcel was sent through Laptop Market’s built-in test carrier, a stand-in for a real carrier: nothing really travels.</p>${body}</body></html>`,
      )
  })
}
