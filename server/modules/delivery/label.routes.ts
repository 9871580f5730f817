import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { IdParams } from '#contract/common'
import { ShippingLabelAnswer } from '#contract/delivery'
import { ERRORS } from '#server/lib/error-responses'
import { caller, signedIn } from '#server/lib/guard'
import { buyShippingLabel } from './label'

/** The seller's shipping label for a paid shipped sale (docs/decisions/0084). */
export const labelRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/bookings/:id/label',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['bookings'],
        summary:
          "The listing's seller buys the shipping label of a paid sale the buyer chose to have shipped, at the rate the buyer paid for: the deal is shipped. Asking again gives the same parcel and buys nothing",
        params: IdParams,
        response: { 200: ShippingLabelAnswer, ...ERRORS },
      },
    },
    async (req) => {
      const { parcel } = await buyShippingLabel(app.ctx, caller(req), req.params.id, (err, voided) =>
        req.log.error(
          { err, shipmentId: voided.carrierShipmentId },
          'the carrier did not refund a label voided for a cancelled sale',
        ),
      )
      return { parcel }
    },
  )
}
