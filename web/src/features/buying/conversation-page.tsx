import { ArrowLeft } from 'lucide-react'
import { Link, useParams } from 'react-router'
import { paths } from '#contract/pages'
import { QueryState } from '../../components/query-state'
import { PageHeader } from '../../components/ui/page-header'
import { Spinner } from '../../components/ui/spinner'
import { useSession } from '../auth'
import { ConversationPanel } from '../messages'
import { OfferThread, useOffers } from '../offers'
import { useBooking } from './bookings-api'
import { ShipmentPanel } from './shipment-panel'

/**
 * `/dashboard/messages/:id`: the conversation on one booking, between its buyer and the listing's seller.
 * An admin reads it (without the form) when it is part of a dispute or a reported message.
 */
export function ConversationPage() {
  const { id = '' } = useParams()
  const { user } = useSession()
  const booking = useBooking(id)
  const isSeller = booking.data && user ? booking.data.sellerId === user.id : false
  const isBuyer = booking.data && user ? booking.data.email === user.email : false
  const canWrite = isBuyer || isSeller
  const back = isSeller
    ? { to: paths.myProduct(), label: 'My Product' }
    : isBuyer
      ? { to: paths.myOrders(), label: 'My Orders' }
      : { to: paths.messages(), label: 'Messages' }

  return (
    <>
      <title>{`Messages${booking.data ? ` · ${booking.data.productName}` : ''} · Laptop Market`}</title>
      <Link
        to={back.to}
        className="mb-3 inline-flex min-h-11 items-center gap-1 text-slate-600 text-sm hover:text-accent"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {back.label}
      </Link>
      <PageHeader title={booking.data ? `Messages about ${booking.data.productName}` : 'Messages'}>
        <p>
          {isSeller
            ? `Your conversation with ${booking.data?.userName}, who booked this laptop.`
            : isBuyer
              ? 'Your conversation with the seller. Keep payments on Laptop Market: they are protected only here.'
              : 'A conversation an admin may read because it was reported or is part of a dispute.'}
        </p>
      </PageHeader>
      <QueryState
        query={booking}
        errorTitle="We could not open this conversation"
        loading={<Spinner label="Loading the conversation" />}
      >
        {(data) => (
          <>
            {canWrite ? (
              <PairOffers role={isSeller ? 'seller' : 'buyer'} productId={data.productId} bookingId={id} />
            ) : null}
            {canWrite ? (
              <div className="mb-6">
                <ShipmentPanel booking={data} side={isSeller ? 'seller' : 'buyer'} />
              </div>
            ) : null}
            <ConversationPanel
              bookingId={id}
              canWrite={canWrite}
              writesAfterReply={
                isBuyer && !data.paid
                  ? 'You can message the seller once you have paid for this laptop.'
                  : undefined
              }
            />
          </>
        )}
      </QueryState>
    </>
  )
}

/** The offers between these two on this laptop, each step a card, above their messages. */
function PairOffers({
  role,
  productId,
  bookingId,
}: {
  role: 'buyer' | 'seller'
  productId: string
  bookingId: string
}) {
  const offers = useOffers(role, productId)
  // A seller's list holds every buyer's offers on the listing: this conversation's buyer's only.
  const mine = (offers.data ?? []).filter((o) => o.conversationId === bookingId).reverse()
  if (mine.length === 0) return null
  return (
    <section aria-label="Offers" className="mb-6 space-y-6">
      {mine.map((offer) => (
        <OfferThread key={offer._id} offer={offer} />
      ))}
    </section>
  )
}
