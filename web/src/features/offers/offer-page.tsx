import { ArrowLeft } from 'lucide-react'
import { Link, useParams } from 'react-router'
import { paths } from '#contract/pages'
import { QueryState } from '../../components/query-state'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { formatMoney } from '../../lib/format'
import { ConversationPanel } from '../messages'
import { OfferThread } from './offer-thread'
import { useOffer } from './offers-api'

/**
 * `/dashboard/offers/:id`: one offer's thread between the buyer and the listing's seller, each step a card, with
 * the messages they already exchange about the laptop (once the buyer has booked it) below.
 */
export function OfferPage() {
  const { id = '' } = useParams()
  const offer = useOffer(id)
  const o = offer.data
  return (
    <>
      <title>{`Offer${o ? ` · ${o.productName}` : ''} · Laptop Market`}</title>
      <Link
        to={o?.role === 'seller' ? paths.offers() : paths.myOrders()}
        className="mb-3 inline-flex min-h-11 items-center gap-1 text-slate-600 text-sm hover:text-accent"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {o?.role === 'seller' ? 'Offers' : 'My Orders'}
      </Link>
      <PageHeader title={o ? `Offer for ${o.productName}` : 'Offer'}>
        {o ? (
          <p>
            {o.role === 'seller'
              ? `${o.buyerName} makes an offer on your listing`
              : `Your offer to ${o.sellerName}`}{' '}
            (asking {formatMoney(o.asking_price_cents)}).{' '}
            <Link to={paths.product(o.productId)} className="text-accent underline">
              See the listing
            </Link>
          </p>
        ) : null}
      </PageHeader>
      <QueryState
        query={offer}
        errorTitle="We could not open this offer"
        loading={<Skeleton className="h-40 w-full max-w-xl" />}
      >
        {(o) => (
          <div className="space-y-8">
            <OfferThread offer={o} />
            {o.conversationId ? (
              <section aria-labelledby="offer-messages" className="space-y-3">
                <h2 id="offer-messages" className="font-semibold text-slate-900 text-xl">
                  Messages
                </h2>
                <ConversationPanel bookingId={o.conversationId} canWrite />
              </section>
            ) : null}
          </div>
        )}
      </QueryState>
    </>
  )
}
