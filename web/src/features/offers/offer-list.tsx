import { Link } from 'react-router'
import type { Offer } from '#contract/offers'
import { paths } from '#contract/pages'
import { ProductImage } from '../../components/product/product-image'
import { formatMoney } from '../../lib/format'
import { OfferStateBadge, timeLeft } from './offer-thread'

/** A line of what an offer waits for, from the reader's side. */
function offerStatusLine(offer: Offer): string {
  if (offer.state === 'open' && offer.expiresAt) {
    const whose = offer.waitingFor === offer.role ? 'Your answer' : `The ${offer.waitingFor}'s answer`
    return `${whose} is awaited, ${timeLeft(offer.expiresAt)} left`
  }
  if (offer.state === 'accepted' && offer.payBy) {
    return offer.role === 'buyer'
      ? `Pay within ${timeLeft(offer.payBy)}`
      : `The buyer pays within ${timeLeft(offer.payBy)}`
  }
  if (offer.state === 'declined' && offer.declineReason) return `Declined: ${offer.declineReason}`
  return ''
}

/** Offers as compact rows (My Orders, the offers page): the laptop, the amount on the table, the state, a link. */
export function OfferList({ offers }: { offers: Offer[] }) {
  return (
    <ul className="space-y-3">
      {offers.map((offer) => (
        <li
          key={offer._id}
          data-testid="offer-row"
          className="grid grid-cols-[5rem_1fr] items-center gap-4 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:grid-cols-[6rem_1fr_auto]"
        >
          <div className="aspect-[4/3] overflow-hidden rounded-lg bg-slate-100">
            <ProductImage
              src={offer.productImage}
              alt={offer.productName}
              width={120}
              height={90}
              loading="lazy"
              className="size-full object-cover"
            />
          </div>
          <div className="min-w-0 space-y-1">
            <p className="font-semibold text-slate-900 leading-snug">
              <Link to={paths.offer(offer._id)} className="hover:text-accent hover:underline">
                {offer.productName}
              </Link>
            </p>
            <p className="flex flex-wrap items-center gap-2 text-slate-600 text-sm">
              <span className="font-semibold text-lg text-slate-900 tabular-nums">
                {formatMoney(offer.amount_cents)}
              </span>
              <span>of {formatMoney(offer.asking_price_cents)} asked</span>
              <OfferStateBadge state={offer.state} />
            </p>
            <p className="text-slate-600 text-sm">
              {offer.role === 'seller' ? `From ${offer.buyerName}. ` : ''}
              {offerStatusLine(offer)}
            </p>
          </div>
          <Link
            to={paths.offer(offer._id)}
            className="col-span-2 inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 px-3 font-medium text-slate-800 text-sm hover:bg-slate-50 sm:col-span-1"
          >
            {offer.state === 'open' && offer.waitingFor === offer.role ? 'Answer' : 'Open'}
            <span className="sr-only"> the offer for {offer.productName}</span>
          </Link>
        </li>
      ))}
    </ul>
  )
}
