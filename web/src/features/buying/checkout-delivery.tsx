import { zodResolver } from '@hookform/resolvers/zod'
import { FlaskConical, MapPin, Truck } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { useForm } from 'react-hook-form'
import type { Booking } from '#contract/bookings'
import {
  canMeet,
  canShip,
  type DeliveryMethod,
  PostalAddress,
  type PostalAddressInput,
  type RateQuoteAnswer,
  whyDeliveryMissing,
} from '#contract/delivery'
import { Button } from '../../components/ui/button'
import { cn } from '../../components/ui/cn'
import { FormField } from '../../components/ui/form-field'
import { isApiError } from '../../lib/api-client'
import { formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useChooseDelivery, useShippingRates } from './delivery-api'

/** What paying this booking charges: the laptop and the shipping chosen (none when met in person). */
export function amountDueOf(booking: Booking): number {
  return booking.price_cents + (booking.delivery?.shipping_cents ?? 0)
}

type Props = {
  booking: Booking
  /** The card form: shown once the delivery is settled (the server refuses payment before it). */
  children: ReactNode
}

/**
 * Checkout's delivery step for a laptop that ships: "Ship to me" or "Meet in person" (only what the listing
 * offers), the address, the carrier's rates to choose from, and laptop + shipping = total above the card form.
 * A listing met in person only has nothing to choose: the card form shows as before (unless the buyer chose
 * shipping before the seller stopped shipping it: they switch to meeting first, and pay no shipping).
 */
export function CheckoutDelivery({ booking, children }: Props) {
  const offered = booking.delivery?.offered ?? 'meet'
  const saved: DeliveryMethod = booking.delivery?.method ?? 'meet'
  const [method, setMethod] = useState<DeliveryMethod>(
    canShip(offered) && (saved === 'ship' || !canMeet(offered)) ? 'ship' : 'meet',
  )
  const choose = useChooseDelivery(booking._id)
  const groupId = useId()
  // The buyer chose shipping, then the seller stopped shipping it: the step stays, to switch to meeting.
  const shipGone = !canShip(offered) && saved === 'ship'
  if (!canShip(offered) && !shipGone) return <>{children}</>

  const pick = (next: DeliveryMethod) => {
    setMethod(next)
    if (next === 'meet' && saved !== 'meet') {
      choose.mutate({ method: 'meet' }, { onError: (err) => toast.error(err.message) })
    }
  }
  // The card form waits until what the buyer sees chosen is what the booking keeps.
  const settled =
    !whyDeliveryMissing(offered, saved) && method === saved && (saved === 'meet' || booking.delivery?.rate)

  return (
    <>
      <section
        aria-labelledby={`${groupId}-title`}
        className="space-y-4 rounded-xl border border-slate-200 bg-white p-5"
      >
        <h2 id={`${groupId}-title`} className="font-semibold text-lg text-slate-900">
          Delivery
        </h2>
        {shipGone ? (
          <div className="space-y-3 text-slate-700 text-sm">
            <p>
              The seller no longer ships this laptop. Meet them in person to hand it over: you pay no
              shipping.
            </p>
            <Button variant="secondary" disabled={choose.isPending} onClick={() => pick('meet')}>
              Meet in person instead
            </Button>
          </div>
        ) : canMeet(offered) ? (
          <fieldset className="grid gap-3 sm:grid-cols-2">
            <legend className="sr-only">How the laptop reaches you</legend>
            <MethodOption
              name={groupId}
              checked={method === 'ship'}
              onChange={() => pick('ship')}
              icon={<Truck aria-hidden="true" className="size-5" />}
              label="Ship to me"
              hint="The seller ships it; shipping is added to the price"
            />
            <MethodOption
              name={groupId}
              checked={method === 'meet'}
              onChange={() => pick('meet')}
              disabled={choose.isPending}
              icon={<MapPin aria-hidden="true" className="size-5" />}
              label="Meet in person"
              hint="Meet the seller to hand it over; no shipping"
            />
          </fieldset>
        ) : (
          <p className="flex items-center gap-2 text-slate-700 text-sm">
            <Truck aria-hidden="true" className="size-5" />
            This laptop is shipped to you: give your address and choose a rate.
          </p>
        )}
        {method === 'ship' && !shipGone ? <ShipTo booking={booking} /> : null}
      </section>
      <Summary
        booking={booking}
        method={method}
        shipping={method === 'ship' && saved === 'ship' ? (booking.delivery?.rate ?? null) : null}
      />
      {settled ? children : null}
    </>
  )
}

function MethodOption(props: {
  name: string
  checked: boolean
  onChange: () => void
  disabled?: boolean
  icon: ReactNode
  label: string
  hint: string
}) {
  return (
    <label
      className={cn(
        'flex min-h-11 cursor-pointer items-start gap-3 rounded-lg border p-3',
        props.checked ? 'border-accent bg-accent-soft/40' : 'border-slate-300 bg-white',
      )}
    >
      <input
        type="radio"
        name={props.name}
        checked={props.checked}
        onChange={props.onChange}
        disabled={props.disabled}
        className="mt-1 size-4 accent-accent"
      />
      <span className="space-y-0.5">
        <span className="flex items-center gap-2 font-medium text-slate-900">
          {props.icon}
          {props.label}
        </span>
        <span className="block text-slate-600 text-sm">{props.hint}</span>
      </span>
    </label>
  )
}

const EMPTY: PostalAddressInput = {
  name: '',
  street1: '',
  street2: '',
  city: '',
  state: '',
  zip: '',
  phone: '',
}

function ShipTo({ booking }: { booking: Booking }) {
  const kept = booking.delivery?.address
  const rates = useShippingRates(booking._id)
  const choose = useChooseDelivery(booking._id)
  const [quote, setQuote] = useState<{ answer: RateQuoteAnswer; address: PostalAddress } | null>(null)
  const [pickedRateId, setPickedRateId] = useState<string | null>(null)
  const ratesId = useId()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PostalAddressInput, unknown, PostalAddress>({
    resolver: zodResolver(PostalAddress),
    defaultValues: kept
      ? {
          name: kept.name,
          street1: kept.street1,
          street2: kept.street2 ?? '',
          city: kept.city,
          state: kept.state,
          zip: kept.zip,
          phone: kept.phone ?? '',
        }
      : { ...EMPTY, name: booking.userName },
  })

  const getRates = handleSubmit((address) => {
    rates.mutate(address, {
      onSuccess: (answer) => {
        setPickedRateId(null)
        setQuote({ answer, address })
      },
      onError: (err) => {
        setQuote(null)
        toast.error(err.message)
        if (!isApiError(err)) return
        for (const field of ['name', 'street1', 'street2', 'city', 'state', 'zip', 'phone'] as const) {
          const message = err.fields?.[`address.${field}`] ?? err.fields?.[field]
          if (message) setError(field, { message })
        }
      },
    })
  })

  const chosenRate = booking.delivery?.method === 'ship' ? booking.delivery.rate : null
  const chooseRate = (rateId: string) => {
    if (!quote) return
    choose.mutate(
      { method: 'ship', address: quote.address, shipment_id: quote.answer.shipment_id, rate_id: rateId },
      {
        onSuccess: () => toast.success('Shipping rate chosen'),
        onError: (err) => toast.error(err.message),
      },
    )
  }
  return (
    <div className="space-y-4">
      <form
        noValidate
        onSubmit={getRates}
        aria-label="Delivery address"
        className="grid gap-4 sm:grid-cols-2"
      >
        <FormField label="Full name" error={errors.name?.message}>
          <input type="text" autoComplete="shipping name" {...register('name')} />
        </FormField>
        <FormField label="Phone (optional)" error={errors.phone?.message}>
          <input type="tel" autoComplete="shipping tel" {...register('phone')} />
        </FormField>
        <FormField label="Street address" error={errors.street1?.message} className="sm:col-span-2">
          <input type="text" autoComplete="shipping address-line1" {...register('street1')} />
        </FormField>
        <FormField
          label="Apartment, suite (optional)"
          error={errors.street2?.message}
          className="sm:col-span-2"
        >
          <input type="text" autoComplete="shipping address-line2" {...register('street2')} />
        </FormField>
        <FormField label="City" error={errors.city?.message}>
          <input type="text" autoComplete="shipping address-level2" {...register('city')} />
        </FormField>
        <div className="grid grid-cols-2 gap-4">
          <FormField label="State" error={errors.state?.message}>
            <input type="text" autoComplete="shipping address-level1" maxLength={2} {...register('state')} />
          </FormField>
          <FormField label="ZIP code" error={errors.zip?.message}>
            <input type="text" inputMode="numeric" autoComplete="shipping postal-code" {...register('zip')} />
          </FormField>
        </div>
        <p className="text-slate-600 text-xs sm:col-span-2">
          Only you see this address until you pay; then the seller sees it to ship the laptop.
        </p>
        <Button type="submit" variant="secondary" className="sm:col-span-2" disabled={rates.isPending}>
          {rates.isPending
            ? 'Getting rates…'
            : quote || chosenRate
              ? 'Get rates again'
              : 'Get shipping rates'}
        </Button>
      </form>

      {quote ? (
        <fieldset
          aria-describedby={quote.answer.test_mode ? `${ratesId}-test` : undefined}
          className="space-y-2"
        >
          <legend className="font-medium text-slate-900">Choose a shipping rate</legend>
          {quote.answer.test_mode ? <TestCarrierNotice id={`${ratesId}-test`} /> : null}
          <ul className="space-y-2">
            {quote.answer.rates.map((rate) => {
              const isChosen = pickedRateId === rate.rate_id
              return (
                <li key={rate.rate_id}>
                  <label
                    className={cn(
                      'flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border p-3',
                      isChosen ? 'border-accent bg-accent-soft/40' : 'border-slate-300 bg-white',
                    )}
                  >
                    <input
                      type="radio"
                      name={`${ratesId}-rate`}
                      checked={isChosen}
                      disabled={choose.isPending}
                      onChange={() => {
                        setPickedRateId(rate.rate_id)
                        chooseRate(rate.rate_id)
                      }}
                      className="size-4 accent-accent"
                    />
                    <span className="min-w-0 flex-1">
                      <span className="block font-medium text-slate-900">
                        {rate.carrier} {serviceName(rate.service)}
                      </span>
                      <span className="block text-slate-600 text-sm">{daysText(rate.delivery_days)}</span>
                    </span>
                    <span className="font-semibold text-slate-900">{formatMoney(rate.amount_cents)}</span>
                  </label>
                </li>
              )
            })}
          </ul>
        </fieldset>
      ) : chosenRate ? (
        <p className="rounded-lg border border-accent/30 bg-accent-soft/40 p-3 text-slate-800 text-sm">
          Shipping by{' '}
          <strong>
            {chosenRate.carrier} {serviceName(chosenRate.service)}
          </strong>{' '}
          ({daysText(chosenRate.delivery_days).toLowerCase()}) for{' '}
          <strong>{formatMoney(chosenRate.amount_cents)}</strong> to {kept?.street1}, {kept?.city}.
        </p>
      ) : null}
    </div>
  )
}

/** The test carrier's label, as the test card form's "Test mode". */
function TestCarrierNotice({ id }: { id: string }) {
  return (
    <div id={id} className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950 text-sm">
      <p className="flex items-center gap-2 font-semibold">
        <FlaskConical aria-hidden="true" className="size-4" />
        Test mode
      </p>
      <p className="mt-1">These rates come from the built-in test carrier: no real parcel is sent.</p>
    </div>
  )
}

function Summary({
  booking,
  method,
  shipping,
}: {
  booking: Booking
  method: DeliveryMethod
  shipping: NonNullable<Booking['delivery']>['rate']
}) {
  return (
    <section aria-label="Order total" className="rounded-xl border border-slate-200 bg-white p-5">
      <dl className="grid grid-cols-[1fr_auto] gap-y-2 text-sm">
        <dt className="text-slate-700">Laptop</dt>
        <dd className="pl-4 text-right text-slate-900">{formatMoney(booking.price_cents)}</dd>
        <dt className="text-slate-700">Shipping</dt>
        <dd className="pl-4 text-right text-slate-900">
          {shipping
            ? formatMoney(shipping.amount_cents)
            : method === 'meet'
              ? 'None (meet in person)'
              : 'Choose a rate'}
        </dd>
        <dt className="border-slate-200 border-t pt-2 font-semibold text-slate-900">Total</dt>
        <dd className="border-slate-200 border-t pt-2 pl-4 text-right font-semibold text-slate-900">
          {formatMoney(booking.price_cents + (shipping?.amount_cents ?? 0))}
        </dd>
      </dl>
    </section>
  )
}

/** EasyPost's service codes read as words: "GroundAdvantage" → "Ground Advantage". */
function serviceName(service: string): string {
  return service.replace(/([a-z])([A-Z])/g, '$1 $2')
}

function daysText(days: number | null): string {
  if (days === null) return 'Delivery time not given'
  return days === 1 ? 'About 1 day' : `About ${days} days`
}
