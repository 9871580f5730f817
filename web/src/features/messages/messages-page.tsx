import { Link } from 'react-router'
import { paths } from '#contract/pages'
import { ProductImage } from '../../components/product/product-image'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { formatDate, formatTime } from '../../lib/format'
import { useConversations, useUnreadMessages } from './messages-api'

/** `/dashboard/messages`: every conversation of the signed-in user, newest message first, with unread counts. */
export function MessagesPage() {
  const conversations = useConversations()
  return (
    <>
      <title>Messages · Laptop Market</title>
      <PageHeader title="Messages">
        <p>Your conversations with buyers and sellers, one per booking.</p>
      </PageHeader>
      <QueryState
        query={conversations}
        errorTitle="We could not load your messages"
        loading={
          <div className="space-y-3" aria-busy="true">
            <span className="sr-only" role="status">
              Loading your conversations
            </span>
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        }
        empty={
          <Alert title="No messages yet">
            <p>Write to a seller from My Orders once you have booked a laptop.</p>
          </Alert>
        }
      >
        {(data) => (
          <ul aria-label="Your conversations" className="space-y-2">
            {data.map((c) => (
              <li key={c.bookingId}>
                <Link
                  to={paths.conversation(c.bookingId)}
                  className="flex items-center gap-4 rounded-xl border border-slate-200 bg-white p-3 hover:border-accent"
                >
                  <ProductImage
                    src={c.productImage}
                    alt=""
                    width={64}
                    height={48}
                    loading="lazy"
                    className="aspect-[4/3] w-16 rounded-md bg-slate-100 object-cover"
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-semibold text-slate-900">{c.productName}</span>
                    <span className="block text-slate-600 text-sm">
                      {c.asBuyer ? 'Seller' : 'Buyer'}: {c.otherName} · {formatDate(c.lastMessageAt)},{' '}
                      {formatTime(c.lastMessageAt)}
                    </span>
                  </span>
                  {c.unread > 0 ? <Badge tone="accent">{c.unread} unread</Badge> : null}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </>
  )
}

/** "Messages" with the unread count, for a booking's row on My Orders or My Product. */
export function MessagesLink({
  bookingId,
  unread,
  label = 'Messages',
  name,
}: {
  bookingId: string
  unread: number
  label?: string
  /** Who or what the conversation is about, for screen readers. */
  name?: string
}) {
  return (
    <Link
      to={paths.conversation(bookingId)}
      className="inline-flex min-h-9 items-center gap-1.5 font-medium text-accent text-sm hover:underline"
    >
      {label}
      {name ? <span className="sr-only"> about {name}</span> : null}
      {unread > 0 ? (
        <span className="rounded-full bg-accent px-1.5 font-semibold text-white text-xs leading-5">
          {unread}
          <span className="sr-only"> unread</span>
        </span>
      ) : null}
    </Link>
  )
}

/**
 * On a My Orders row: the conversation with the seller, with its unread count. An unpaid booking has one only
 * when the seller wrote first (its buyer writes once they have paid), so there is no link to an empty one.
 */
export function OrderMessagesLink({
  bookingId,
  productName,
  isPaid,
}: {
  bookingId: string
  productName: string
  isPaid: boolean
}) {
  const unread = useUnreadMessages()
  const conversations = useConversations(!isPaid)
  if (!isPaid && !conversations.data?.some((c) => c.bookingId === bookingId)) return null
  return (
    <MessagesLink bookingId={bookingId} unread={unread.data?.bookings?.[bookingId] ?? 0} name={productName} />
  )
}

/**
 * On a My Product row: a link to each conversation buyers started about this laptop (and to the paying
 * buyer's, to write first), with unread counts.
 */
export function ProductMessagesLinks({
  productId,
  productName,
  saleBookingId,
}: {
  productId: string
  productName: string
  saleBookingId?: string
}) {
  const conversations = useConversations()
  const unread = useUnreadMessages()
  const here = (conversations.data ?? []).filter((c) => c.productId === productId)
  const links = here.map((c) => ({ bookingId: c.bookingId, label: `Messages with ${c.otherName}` }))
  if (saleBookingId && !here.some((c) => c.bookingId === saleBookingId)) {
    links.push({ bookingId: saleBookingId, label: 'Message the buyer' })
  }
  if (links.length === 0) return null
  return (
    <div className="flex flex-wrap gap-x-4">
      {links.map((l) => (
        <MessagesLink
          key={l.bookingId}
          bookingId={l.bookingId}
          label={l.label}
          name={productName}
          unread={unread.data?.bookings?.[l.bookingId] ?? 0}
        />
      ))}
    </div>
  )
}
