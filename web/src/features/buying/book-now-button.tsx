import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import type { Product } from '#contract/products'
import { loginPathFrom } from '../../app/require-auth'
import { Button, type ButtonSize } from '../../components/ui/button'
import { useSession } from '../auth/use-session'
import { BookingModal } from './booking-modal'

type BookNowButtonProps = {
  product: Product
  size?: ButtonSize
  className?: string
}

/**
 * Book Now: opens the booking modal for a signed-in user; a signed-out visitor signs in first and comes
 * back to this page. A sold laptop cannot be booked, so it gets no button.
 */
export function BookNowButton({ product, size = 'md', className }: BookNowButtonProps) {
  const { user, isLoading } = useSession()
  const [isOpen, setIsOpen] = useState(false)
  const navigate = useNavigate()
  const location = useLocation()

  if (product.sellStatus) return null

  const openBooking = () => {
    if (user) setIsOpen(true)
    else navigate(loginPathFrom(`${location.pathname}${location.search}`))
  }

  return (
    <>
      <Button
        size={size}
        className={className ?? 'w-full sm:w-auto'}
        onClick={openBooking}
        disabled={isLoading}
        aria-haspopup="dialog"
      >
        Book Now<span className="sr-only"> {product.name}</span>
      </Button>
      {isOpen && user ? (
        <BookingModal product={product} buyer={user} onClose={() => setIsOpen(false)} />
      ) : null}
    </>
  )
}
