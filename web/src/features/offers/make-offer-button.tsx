import { X } from 'lucide-react'
import { type FormEvent, useId, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { OFFER_MIN_SHARE, OFFER_NOTE_MAX } from '#contract/offer-limits'
import { paths } from '#contract/pages'
import type { Product } from '#contract/products'
import { Button, type ButtonSize } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { useModalDialog } from '../../components/ui/use-modal-dialog'
import { isApiError } from '../../lib/api-client'
import { formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { loginPathFrom, useSession } from '../auth'
import { useMakeOffer } from './offers-api'

/**
 * "Make an offer", beside Book Now: a signed-in buyer proposes a price (and a note) in a modal; a signed-out
 * visitor signs in first and comes back. Not shown on a sold or expired listing, one that takes no offers, or
 * the caller's own.
 */
export function MakeOfferButton({ product, size = 'md' }: { product: Product; size?: ButtonSize }) {
  const { user, isLoading } = useSession()
  const [isOpen, setIsOpen] = useState(false)
  const navigate = useNavigate()
  const location = useLocation()
  if (product.sellStatus || product.expired || product.offers_enabled === false) return null
  if (user && user.id === product.seller_id) return null
  const open = () => {
    if (user) setIsOpen(true)
    else navigate(loginPathFrom(`${location.pathname}${location.search}`))
  }
  return (
    <>
      <Button
        size={size}
        variant="secondary"
        className="w-full sm:w-auto"
        onClick={open}
        disabled={isLoading}
        aria-haspopup="dialog"
      >
        Make an offer<span className="sr-only"> for {product.name}</span>
      </Button>
      {isOpen && user ? <OfferModal product={product} onClose={() => setIsOpen(false)} /> : null}
    </>
  )
}

function OfferModal({ product, onClose }: { product: Product; onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const amountRef = useRef<HTMLInputElement>(null)
  const titleId = useId()
  const navigate = useNavigate()
  const makeOffer = useMakeOffer()
  const [amount, setAmount] = useState('')
  const [note, setNote] = useState('')
  const [errors, setErrors] = useState<{ amount?: string; note?: string }>({})
  const asking = product.resale_price_cents
  const lowest = Math.ceil(asking * OFFER_MIN_SHARE)

  const close = useModalDialog(dialogRef, { focus: () => amountRef.current?.focus() })

  async function submit(event: FormEvent) {
    event.preventDefault()
    const dollars = Number(amount.replace(/[$,\s]/g, ''))
    if (!amount.trim() || !Number.isFinite(dollars) || dollars <= 0) {
      setErrors({ amount: 'Enter an amount in dollars' })
      amountRef.current?.focus()
      return
    }
    setErrors({})
    // Awaited rather than given callbacks, like the booking modal: an answer that refreshes the listing can unmount
    // this dialog before callbacks given to `mutate` would run.
    let answer: Awaited<ReturnType<typeof makeOffer.mutateAsync>>
    try {
      answer = await makeOffer.mutateAsync({
        productId: product._id,
        amount: dollars,
        note: note.trim() || undefined,
      })
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err))
      if (isApiError(err) && err.fields) {
        setErrors({ amount: err.fields.amount, note: err.fields.note })
        if (err.fields.amount) amountRef.current?.focus()
      } else if (isApiError(err) && (err.status === 403 || err.status === 404 || err.status === 409)) {
        close()
      }
      return
    }
    toast.success('Offer sent')
    close()
    navigate(paths.offer(answer.insertedId))
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/60"
    >
      <div className="flex items-start justify-between gap-4 border-slate-200 border-b px-5 py-4">
        <h2 id={titleId} className="font-semibold text-lg leading-snug">
          Make an offer for {product.name}
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
        <p className="text-slate-600 text-sm">
          The seller asks <strong className="text-slate-900">{formatMoney(asking)}</strong>. Offer less and
          they can accept, decline or answer with another price. Once a price is agreed, the laptop is held
          for you while you pay.
        </p>
        <FormField
          label="Your offer ($)"
          hint={`At least ${formatMoney(lowest)} (half the asking price), and less than ${formatMoney(asking)}.`}
          error={errors.amount}
        >
          <input
            ref={amountRef}
            inputMode="decimal"
            autoComplete="off"
            placeholder={String(Math.round((asking * 0.9) / 100))}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        </FormField>
        <FormField label="Note to the seller (optional)" error={errors.note}>
          <textarea
            rows={3}
            maxLength={OFFER_NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            className="block w-full rounded-lg border px-3 py-2 text-base shadow-sm sm:text-sm"
          />
        </FormField>
        <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" disabled={makeOffer.isPending}>
            {makeOffer.isPending ? 'Sending…' : 'Send offer'}
          </Button>
        </div>
      </form>
    </dialog>
  )
}
