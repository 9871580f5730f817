import { CircleCheck, Pencil } from 'lucide-react'
import { useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { paths } from '#contract/pages'
import type { Product } from '#contract/products'
import { Button, type ButtonSize, buttonClasses } from '../../components/ui/button'
import { cn } from '../../components/ui/cn'
import { LazyDialog } from '../../components/ui/lazy-dialog'
import { loginPathFrom, useSession } from '../auth'
import { useMyBookingOf } from './bookings-api'

// The modal's form and its rules load when a buyer opens it, not with every listing page.
const loadBookingModal = () => import('./booking-modal').then((m) => ({ default: m.BookingModal }))

type BookNowButtonProps = {
  product: Product
  size?: ButtonSize
  className?: string
}

/**
 * Book Now: opens the booking modal for a signed-in user; a signed-out visitor signs in first and comes
 * back to this page. A sold laptop cannot be booked, so it gets no button. Nobody is offered what the server
 * would refuse: the seller sees "Your listing" with a link to edit it, and a buyer who booked it already sees
 * "Booked — Pay now", leading to the payment page.
 */
export function BookNowButton({ product, size = 'md', className }: BookNowButtonProps) {
  const { user, isLoading } = useSession()
  const [isOpen, setIsOpen] = useState(false)
  const navigate = useNavigate()
  const location = useLocation()
  const isOwn = Boolean(user && product.seller_id === user.id)
  const booked = useMyBookingOf(product._id, !isOwn && !product.sellStatus ? user?.email : undefined)
  const width = className ?? 'w-full sm:w-auto'

  if (product.sellStatus) return null

  if (isOwn) {
    return (
      <p className={cn('flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-700 text-sm', width)}>
        <span className="font-medium text-slate-900">Your listing</span>
        <Link to={paths.editProduct(product._id)} className={buttonClasses('secondary', 'sm')}>
          <Pencil aria-hidden="true" className="size-4" />
          Edit<span className="sr-only"> {product.name}</span>
        </Link>
      </p>
    )
  }

  const booking = booked.data
  if (booking && booking.status === 'unpaid') {
    return (
      <Link to={paths.payment(booking._id)} className={cn(buttonClasses('primary', size), width)}>
        <CircleCheck aria-hidden="true" className="size-4" />
        Booked — Pay now<span className="sr-only"> for {product.name}</span>
      </Link>
    )
  }

  const openBooking = () => {
    if (user) setIsOpen(true)
    else navigate(loginPathFrom(`${location.pathname}${location.search}`))
  }

  return (
    <>
      <Button
        size={size}
        className={width}
        onClick={openBooking}
        disabled={isLoading || (Boolean(user) && booked.isPending)}
        aria-haspopup="dialog"
      >
        Book Now<span className="sr-only"> {product.name}</span>
      </Button>
      {isOpen && user ? (
        <LazyDialog
          load={loadBookingModal}
          props={{ product, buyer: user, onClose: () => setIsOpen(false) }}
          what="The booking form"
          onClose={() => setIsOpen(false)}
        />
      ) : null}
    </>
  )
}
