// A quoted rate read back from the carrier: what a buyer's choice of rate is checked against, so the price a
// booking charges for shipping is the carrier's and never the browser's (docs/decisions/0083). Like quoteRates,
// it calls the carrier over HTTP: call it outside an open transaction.
import type { AppContext } from '#server/app-context'
import { AppError } from '#server/lib/errors'
import { carrierOf } from './carrier'
import type { ParcelSpec, PostalAddress, ShippingRate } from './types'

type EpAddress = Partial<Record<'name' | 'street1' | 'street2' | 'city' | 'state' | 'zip', string | null>>
type EpShipment = {
  id?: string
  to_address?: EpAddress | null
  from_address?: EpAddress | null
  parcel?: { weight?: number | null } | null
  rates?: { id?: string; carrier?: string; service?: string; rate?: string; delivery_days?: number | null }[]
  postage_label?: unknown
}

const UNKNOWN = 'That shipping rate is not one we quoted for this laptop and address: get the rates again'

const norm = (v: string | null | undefined) =>
  (v ?? '').normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase()

/** The same postal address, letter case and spacing aside (the ZIP's first five digits decide). */
function sameAddress(a: EpAddress | null | undefined, b: PostalAddress): boolean {
  if (!a) return false
  const fields = ['name', 'street1', 'street2', 'city', 'state'] as const
  return fields.every((f) => norm(a[f]) === norm(b[f])) && norm(a.zip).slice(0, 5) === norm(b.zip).slice(0, 5)
}

/**
 * The rate `rateId` of shipment `shipmentId`, as the carrier has it, provided that shipment is still unbought and
 * was quoted from `from` to `to` for `parcel`'s weight; a VALIDATION error otherwise (an unknown shipment or rate
 * included), so a rate quoted for another address or listing cannot be passed off as this one.
 */
export async function quotedRate(
  ctx: AppContext,
  input: { shipmentId: string; rateId: string; from: PostalAddress; to: PostalAddress; parcel: ParcelSpec },
): Promise<ShippingRate> {
  const client = await carrierOf(ctx).client()
  const shipment = (await client.Shipment.retrieve(input.shipmentId).catch((err: unknown) => {
    const status = (err as { statusCode?: number }).statusCode
    if (status === 404 || status === 422 || status === 400) throw new AppError('VALIDATION', UNKNOWN)
    throw new AppError('INTERNAL', `The carrier did not answer: ${(err as Error).message ?? 'no answer'}`)
  })) as EpShipment
  const rate = (shipment.rates ?? []).find((r) => r.id === input.rateId)
  const matches =
    rate !== undefined &&
    !shipment.postage_label &&
    sameAddress(shipment.to_address, input.to) &&
    sameAddress(shipment.from_address, input.from) &&
    Number(shipment.parcel?.weight) === input.parcel.weightOz
  if (!rate || !matches) throw new AppError('VALIDATION', UNKNOWN)
  return {
    rateId: String(rate.id),
    carrier: String(rate.carrier ?? ''),
    service: String(rate.service ?? ''),
    amountCents: Math.round(Number(rate.rate ?? 0) * 100),
    deliveryDays: typeof rate.delivery_days === 'number' ? rate.delivery_days : null,
  }
}
