import { paths } from '#contract/pages'
import { compose, defineEmail, emailDate, named } from './layout'

/** Each step of a return (server/modules/returns), to the side that acts next or needs to know. */
export type ReturnStep =
  /** Both: the buyer opened a return; the seller answers. */
  | 'opened'
  /** Buyer: the seller (or an admin) accepted; a shipped sale's label follows, a met one is handed back. */
  | 'accepted'
  /** Buyer: the seller declined; an admin decides. */
  | 'declined'
  /** Both: an admin refused the return; the sale completed. */
  | 'refused'
  /** Buyer: the return label is ready. */
  | 'label'
  /** Seller: the laptop was delivered back; check it and answer by `by`. */
  | 'delivered_back'
  /** Both: the laptop came back as sent; the buyer is refunded. */
  | 'refunded'
  /** Both: the seller says it came back otherwise; an admin decides. */
  | 'disputed'
  /** Both: an admin asked for the laptop back before deciding a dispute. */
  | 'return_first'

export default defineEmail<{
  role: 'buyer' | 'seller'
  step: ReturnStep
  productName: string
  buyerName: string
  method: 'ship' | 'meet'
  /** The buyer's reason, a decline's or decision's reason, or the seller's note on what came back. */
  reason?: string | null
  labelUrl?: string | null
  trackingCode?: string | null
  priceCents?: number
  /** When the seller's check is due (delivered_back). */
  by?: string | null
}>({
  topic: 'deals',
  render: (d, ctx) => {
    const product = named(d.productName)
    const page =
      d.role === 'buyer'
        ? { label: 'Open My Orders', url: `${ctx.siteUrl}${paths.myOrders()}` }
        : { label: 'Open My Product', url: `${ctx.siteUrl}${paths.myProduct()}` }
    const quoted = d.reason ? `“${d.reason}”` : ''
    const parts = (() => {
      switch (d.step) {
        case 'opened':
          return d.role === 'buyer'
            ? {
                subject: `You asked to return ${product}`,
                preview: 'The seller answers; if they decline, an admin decides.',
                heading: 'Your return is requested',
                paragraphs: [
                  `You asked to return ${product} as not as described: ${quoted}`,
                  'The money stays with us meanwhile. The seller accepts the return, or declines it and an admin decides; we email you either way.',
                ],
              }
            : {
                subject: `${d.buyerName} wants to return ${product}`,
                preview: 'Accept the return, or decline it and an admin decides.',
                heading: 'The buyer asked to return the laptop',
                paragraphs: [
                  `${d.buyerName} says ${product} is not as described: ${quoted}`,
                  d.method === 'ship'
                    ? 'Accept it and we buy a return label at your cost; once the laptop is back and as you sent it, the buyer is refunded. Decline it and an admin decides.'
                    : 'Accept it and the buyer hands it back to you; once you have it and it is as you sent it, the buyer is refunded. Decline it and an admin decides.',
                ],
              }
        case 'accepted':
          return {
            subject: `Your return of ${product} is accepted`,
            preview:
              d.method === 'ship'
                ? 'The return label follows in a moment.'
                : 'Hand the laptop back to the seller.',
            heading: 'Return accepted',
            paragraphs: [
              ...(d.reason ? [`An admin decided: ${quoted}`] : []),
              d.method === 'ship'
                ? 'We are buying the return label, paid by the seller; we email it to you in a moment. Pack the laptop as it came and send it back with that label.'
                : 'Hand the laptop back to the seller as you met. Once they confirm it is as they sent it, you are refunded in full.',
            ],
          }
        case 'declined':
          return {
            subject: `The seller declined your return of ${product}`,
            preview: 'An admin decides now.',
            heading: 'The seller declined the return',
            paragraphs: [
              `The seller’s reason: ${quoted}`,
              'An admin reads both sides and decides: the return goes ahead, or the sale completes. We email you either way.',
            ],
          }
        case 'refused':
          return {
            subject: `The return of ${product} was refused`,
            preview: 'An admin refused the return; the sale is complete.',
            heading: 'Return refused',
            paragraphs: [
              `An admin refused the return: ${quoted}`,
              d.role === 'seller'
                ? 'The sale is complete and your share is available in Earnings.'
                : 'The sale is complete. Reply to this email if something is still wrong.',
            ],
          }
        case 'label':
          return {
            subject: `Your return label for ${product}`,
            preview: 'Print it and send the laptop back.',
            heading: 'Your return label is ready',
            paragraphs: [
              `The return label for ${product} is ready${d.trackingCode ? ` (tracking ${d.trackingCode})` : ''}. Print it, pack the laptop as it came, and hand the parcel to the carrier.`,
              ...(d.labelUrl ? [`Label: ${d.labelUrl}`] : []),
              'Once it is delivered back and the seller confirms it is as they sent it, you are refunded in full.',
            ],
          }
        case 'delivered_back':
          return {
            subject: `${product} is back with you: check it`,
            preview: 'Confirm it is as you sent it, or say what is different.',
            heading: 'The returned laptop was delivered',
            paragraphs: [
              `The carrier delivered ${product} back to you.`,
              `Check it and confirm it is as you sent it (the buyer is then refunded), or say what is different and an admin decides.${d.by ? ` With no answer by ${emailDate(d.by)}, the buyer is refunded.` : ''}`,
            ],
          }
        case 'refunded':
          return d.role === 'buyer'
            ? {
                subject: `You are refunded for ${product}`,
                preview: 'The seller confirmed the laptop came back as sent.',
                heading: 'Returned and refunded',
                paragraphs: [
                  `${product} is back with the seller and you are refunded in full to the card you paid with. Refunds take a few days to show.`,
                ],
              }
            : {
                subject: `The return of ${product} is done`,
                preview: 'The buyer is refunded; the sale is off.',
                heading: 'Return complete',
                paragraphs: [
                  `The buyer is refunded for ${product}; the sale’s money went back to them and our fee with it. The laptop is yours again.`,
                ],
              }
        case 'disputed':
          return {
            subject: `The returned ${product} needs an admin`,
            preview: 'The seller says it came back otherwise.',
            heading: 'An admin decides the return',
            paragraphs: [
              `The seller says ${product} came back otherwise: ${quoted}`,
              'The money stays with us meanwhile. An admin reads both sides and decides; we email you either way.',
            ],
          }
        case 'return_first':
          return d.role === 'buyer'
            ? {
                subject: `Send ${product} back before your refund`,
                preview:
                  d.method === 'ship'
                    ? 'The return label follows in a moment.'
                    : 'Hand it back to the seller.',
                heading: 'The laptop comes back first',
                paragraphs: [
                  `An admin looked at the problem you reported and asks for ${product} back before refunding you${d.reason ? `: ${quoted}` : '.'}`,
                  d.method === 'ship'
                    ? 'We are buying the return label, paid by the seller, and email it to you in a moment. Once the laptop is back and as the seller sent it, you are refunded in full.'
                    : 'Hand it back to the seller. Once they confirm it is as they sent it, you are refunded in full.',
                ],
              }
            : {
                subject: `${product} is coming back to you`,
                preview: 'Check it when it arrives.',
                heading: 'The laptop comes back first',
                paragraphs: [
                  `An admin asked the buyer to return ${product} before a refund${d.reason ? `: ${quoted}` : '.'}`,
                  d.method === 'ship'
                    ? 'The return label is bought at your cost. When it is delivered, check it and confirm it is as you sent it, or say what is different.'
                    : 'The buyer hands it back to you. Check it and confirm it is as you sent it, or say what is different.',
                ],
              }
      }
    })()
    return compose({ ...parts, action: page, topic: 'deals' }, ctx)
  },
})
