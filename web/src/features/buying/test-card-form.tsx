import { zodResolver } from '@hookform/resolvers/zod'
import { FlaskConical } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'
import { TestCard } from '#contract/payments'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { isApiError } from '../../lib/api-client'
import { formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { type PaymentResult, usePayWithTestCard } from './bookings-api'

type CardInput = z.input<typeof TestCard>
type CardOutput = z.output<typeof TestCard>

/** Stripe's documented test cards, which the built-in processor answers the same way. */
export const TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'succeeds' },
  { number: '4000 0000 0000 0002', outcome: 'is declined' },
  { number: '4000 0000 0000 9995', outcome: 'fails for insufficient funds' },
] as const

/** "4242424242424242" → "4242 4242 4242 4242", as printed on a card; at most 19 digits. */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19)
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ')
}

/**
 * "1228" → "12 / 28". The slash appears only once the year is being typed, so backspace never
 * gets stuck on it.
 */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4)
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits
}

export function TestModeNotice() {
  return (
    <div className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950 text-sm">
      <p className="flex items-center gap-2 font-semibold text-base">
        <FlaskConical aria-hidden="true" className="size-5" />
        Test mode
      </p>
      <p className="mt-1">
        No real card is charged. Use one of these test cards, any future expiry date and any 3-digit CVC:
      </p>
      <ul className="mt-2 space-y-1">
        {TEST_CARDS.map((card) => (
          <li key={card.number}>
            <span className="font-mono font-semibold tabular-nums">{card.number}</span> {card.outcome}
          </li>
        ))}
      </ul>
    </div>
  )
}

type TestCardFormProps = {
  bookingId: string
  amountCents: number
  onPaid: (result: PaymentResult) => void
}

/**
 * The card form of the built-in test processor. The number (Luhn), expiry and CVC are checked here
 * with the server's own rules; a decline is shown above the button and the form stays usable.
 */
export function TestCardForm({ bookingId, amountCents, onPaid }: TestCardFormProps) {
  const payment = usePayWithTestCard(bookingId)
  const [declined, setDeclined] = useState<string | null>(null)
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    formState: { errors },
  } = useForm<CardInput, unknown, CardOutput>({
    resolver: zodResolver(TestCard),
    defaultValues: { number: '', expiry: '', cvc: '' },
  })

  // Every try starts clean: a decline from the last one must not sit under a new, different error.
  const submit = handleSubmit(
    (card) => {
      setDeclined(null)
      payment.mutate(card, {
        onSuccess: (result) => {
          toast.success('Payment successful')
          onPaid(result)
        },
        onError: (err) => {
          if (isApiError(err) && err.status === 402) {
            setDeclined(err.message)
            return
          }
          toast.error(err.message)
          if (!isApiError(err)) return
          for (const field of ['number', 'expiry', 'cvc'] as const) {
            const message = err.fields?.[field] ?? err.fields?.[`card.${field}`]
            if (message) setError(field, { message })
          }
        },
      })
    },
    () => setDeclined(null),
  )

  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Card details">
      <FormField label="Card number" error={errors.number?.message}>
        <input
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          {...register('number', {
            onChange: (e) => setValue('number', formatCardNumber(e.target.value)),
          })}
        />
      </FormField>
      <div className="grid grid-cols-2 gap-4">
        <FormField label="Expiry (MM / YY)" error={errors.expiry?.message}>
          <input
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            {...register('expiry', {
              onChange: (e) => setValue('expiry', formatExpiry(e.target.value)),
            })}
          />
        </FormField>
        <FormField label="CVC" error={errors.cvc?.message}>
          <input
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            {...register('cvc')}
          />
        </FormField>
      </div>

      {declined ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-red-900 text-sm">
          <p className="font-semibold">{declined}</p>
          <p className="mt-1">Nothing was charged. Check the details or try another card.</p>
        </div>
      ) : null}

      <Button type="submit" size="lg" className="w-full" disabled={payment.isPending}>
        {payment.isPending ? 'Paying…' : `Pay ${formatMoney(amountCents)}`}
      </Button>
    </form>
  )
}
