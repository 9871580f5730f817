import { zodResolver } from '@hookform/resolvers/zod'
import { X } from 'lucide-react'
import { useId, useRef } from 'react'
import { useForm } from 'react-hook-form'
import { NewBooking } from '#contract/bookings'
import type { Product } from '#contract/products'
import type { Me } from '#contract/users'
import { ProductImage } from '../../components/product/product-image'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { useModalDialog } from '../../components/ui/use-modal-dialog'
import { isApiError } from '../../lib/api-client'
import { formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useCreateBooking } from './bookings-api'

/** What the buyer types; everything else is read from the listing and the session by the server. */
const BookingFields = NewBooking.pick({ phoneNumber: true, location: true })
type BookingFields = { phoneNumber: string; location: string }

type BookingModalProps = {
  product: Product
  buyer: Pick<Me, 'name' | 'email'>
  onClose: () => void
}

/**
 * The booking form in a modal <dialog>: the browser keeps focus inside it, closes it on Escape and
 * hides the page behind it from screen readers.
 */
export function BookingModal({ product, buyer, onClose }: BookingModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const booking = useCreateBooking()
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm<BookingFields>({
    resolver: zodResolver(BookingFields),
    defaultValues: { phoneNumber: '', location: '' },
  })

  // Focus goes back to whatever opened the modal (the Book Now button) when it closes.
  const close = useModalDialog(dialogRef, { focus: () => setFocus('phoneNumber') })

  // Awaited rather than given callbacks: a booking refreshes the listing's button ("Booked — Pay now"), which can
  // unmount this modal before the answer's callbacks would run, and the success toast would be lost with them.
  const submit = handleSubmit(async (values) => {
    try {
      await booking.mutateAsync({
        productId: product._id,
        phoneNumber: values.phoneNumber,
        location: values.location,
      })
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err))
      if (!isApiError(err)) return
      for (const field of ['phoneNumber', 'location'] as const) {
        const message = err.fields?.[field]
        if (message) setError(field, { message })
      }
      // Already booked, sold, or the buyer's own listing: nothing in the form can change that.
      if (err.status === 403 || err.status === 404 || err.status === 409) close()
      return
    }
    toast.success('Product booked Successfully')
    close()
  })

  const photo = product.images[0]?.card ?? product.img
  const price = formatMoney(product.resale_price_cents)

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/60"
    >
      <div className="flex items-start justify-between gap-4 border-slate-200 border-b px-5 py-4">
        <h2 id={titleId} className="font-semibold text-lg leading-snug">
          Book {product.name}
        </h2>
        <button
          type="button"
          onClick={close}
          aria-label="Close"
          className="-m-2 rounded-lg p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>

      <form noValidate onSubmit={submit} className="space-y-4 px-5 py-5">
        <div className="flex items-center gap-4">
          <ProductImage
            src={photo}
            alt={product.name}
            width={128}
            height={96}
            className="aspect-[4/3] w-28 shrink-0 rounded-lg bg-slate-100 object-cover"
          />
          <p className="text-slate-600 text-sm">
            After booking, pay for it from My Orders. The first buyer to pay gets the laptop.
          </p>
        </div>

        <FormField label="Name">
          <input value={buyer.name} readOnly />
        </FormField>
        <FormField label="Email">
          <input type="email" value={buyer.email} readOnly />
        </FormField>
        <FormField label="Price">
          <input value={price} readOnly />
        </FormField>
        <FormField label="Phone number" error={errors.phoneNumber?.message}>
          <input
            type="tel"
            autoComplete="tel"
            inputMode="tel"
            placeholder="+1 555 123 4567"
            {...register('phoneNumber')}
          />
        </FormField>
        <FormField label="Location" error={errors.location?.message}>
          <input
            autoComplete="address-level2"
            placeholder="Where you can meet the seller"
            {...register('location')}
          />
        </FormField>

        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={booking.isPending}>
            {booking.isPending ? 'Booking…' : 'Submit'}
          </Button>
        </div>
      </form>
    </dialog>
  )
}
