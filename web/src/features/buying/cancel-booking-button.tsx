import { useState } from 'react'
import type { Booking } from '#contract/bookings'
import { Button, type ButtonSize } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { errorMessage } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { useCancelBooking } from './bookings-api'

/**
 * "Cancel booking" on a booking not paid yet, asked once more in a dialog: nothing was paid, so nothing is charged
 * or refunded; the seller is told and the laptop is free for other buyers at once.
 */
export function CancelBookingButton({
  booking,
  size = 'sm',
}: {
  booking: Pick<Booking, '_id' | 'productName'>
  size?: ButtonSize
}) {
  const cancel = useCancelBooking()
  const [asking, setAsking] = useState(false)

  function confirm() {
    cancel.mutate(booking._id, {
      onSuccess: () => toast.success('Booking cancelled. We told the seller.'),
      onError: (err) => toast.error(errorMessage(err)),
      onSettled: () => setAsking(false),
    })
  }

  return (
    <>
      <Button size={size} variant="danger-outline" onClick={() => setAsking(true)}>
        Cancel booking<span className="sr-only"> of {booking.productName}</span>
      </Button>
      {asking ? (
        <ConfirmDialog
          title="Cancel this booking?"
          description={
            <p>
              You have not paid for {booking.productName}, so nothing is charged. We tell the seller, and any
              other buyer can pay for it from now on. While it is for sale you can book it again from its
              page.
            </p>
          }
          confirmLabel="Cancel booking"
          cancelLabel="Keep the booking"
          isPending={cancel.isPending}
          onConfirm={confirm}
          onCancel={() => setAsking(false)}
        />
      ) : null}
    </>
  )
}
