import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js'
// The "pure" entry adds Stripe.js to the page only when loadStripe is called, not on import.
import { loadStripe } from '@stripe/stripe-js/pure'
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { LoadFailed } from '../../components/query-state'
import { Button } from '../../components/ui/button'
import { Spinner } from '../../components/ui/spinner'
import { formatMoney } from '../../lib/format'
import { paymentKeys } from '../../lib/query-keys'
import { usePaymentIntent } from './bookings-api'

type StripePaymentFormProps = {
  bookingId: string
  publishableKey: string
  amountCents: number
  /** Stripe accepted the card; the booking turns paid when Stripe's webhook reaches the server. */
  onConfirmed: () => void
}

function useStripeJs(publishableKey: string) {
  return useQuery({
    queryKey: paymentKeys.stripeJs(publishableKey),
    queryFn: async () => {
      const stripe = await loadStripe(publishableKey)
      if (!stripe) throw new Error('The card form could not be loaded.')
      return stripe
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
    // The Stripe object is a live client, not data: keep the very same instance.
    structuralSharing: false,
  })
}

/**
 * Stripe Elements for one booking. This module is imported only by the payment page and only when the
 * server takes cards through Stripe, so no other page ever loads Stripe.js.
 */
export default function StripePaymentForm({
  bookingId,
  publishableKey,
  amountCents,
  onConfirmed,
}: StripePaymentFormProps) {
  const stripe = useStripeJs(publishableKey)
  const intent = usePaymentIntent(bookingId)

  const error = stripe.error ?? intent.error
  if (error) {
    return (
      <LoadFailed
        title="We could not load the card form"
        error={error}
        // Stripe.js failing to load is not the server's error: its own words say why.
        message={error.message}
        onRetry={() => {
          if (stripe.error) stripe.refetch()
          if (intent.error) intent.refetch()
        }}
      />
    )
  }
  if (!stripe.data || !intent.data) return <CardFormLoading />

  return (
    <Elements
      stripe={stripe.data}
      options={{
        clientSecret: intent.data.clientSecret,
        appearance: { theme: 'stripe', variables: { colorPrimary: '#0f766e', borderRadius: '8px' } },
      }}
    >
      <CardForm amountCents={amountCents} onConfirmed={onConfirmed} />
    </Elements>
  )
}

function CardFormLoading() {
  return (
    <div className="flex min-h-40 items-center justify-center rounded-xl border border-slate-200 bg-white">
      <Spinner label="Loading the card form" />
      <span aria-hidden="true" className="ml-2 text-slate-600 text-sm">
        Loading the card form…
      </span>
    </div>
  )
}

function CardForm({ amountCents, onConfirmed }: Pick<StripePaymentFormProps, 'amountCents' | 'onConfirmed'>) {
  const stripe = useStripe()
  const elements = useElements()
  const [isReady, setIsReady] = useState(false)
  const [isSubmitting, setIsSubmitting] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!stripe || !elements) return
    setIsSubmitting(true)
    setFailure(null)
    const { error, paymentIntent } = await stripe.confirmPayment({
      elements,
      // Cards that need 3-D Secure leave the page and come back here with the intent in the URL.
      redirect: 'if_required',
      confirmParams: { return_url: window.location.href },
    })
    setIsSubmitting(false)
    if (error) {
      setFailure(error.message ?? 'Your payment could not be completed.')
      return
    }
    if (paymentIntent && (paymentIntent.status === 'succeeded' || paymentIntent.status === 'processing')) {
      onConfirmed()
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Card details">
      {isReady ? null : <CardFormLoading />}
      <PaymentElement onReady={() => setIsReady(true)} />
      {failure ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900 text-sm">
          <p className="font-semibold">{failure}</p>
        </div>
      ) : null}
      <Button
        type="submit"
        size="lg"
        className="w-full"
        disabled={!stripe || !elements || !isReady || isSubmitting}
      >
        {isSubmitting ? 'Paying…' : `Pay ${formatMoney(amountCents)}`}
      </Button>
    </form>
  )
}
