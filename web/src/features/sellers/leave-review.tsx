import { type FormEvent, useId, useState } from 'react'
import { NewReview, REVIEW_TEXT_MAX, type Review } from '#contract/reviews'
import { Stars } from '../../components/product/seller-rating'
import { Button } from '../../components/ui/button'
import { cn } from '../../components/ui/cn'
import { FormField } from '../../components/ui/form-field'
import { isApiError } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { useMyReviews, useWriteReview } from './reviews-api'

/**
 * On My Orders and My Product, under a completed sale: "Leave a review" (stars and a short text) for the
 * other side, or the review once written, and the other side's once it is published.
 */
export function SaleReview({ bookingId, otherSide }: { bookingId: string; otherSide: 'seller' | 'buyer' }) {
  const { data } = useMyReviews()
  const [isOpen, setIsOpen] = useState(false)
  if (!data) return null
  const mine = data.written.find((r) => r.bookingId === bookingId)
  const theirs = data.received.find((r) => r.bookingId === bookingId)
  return (
    <div className="mt-3 space-y-2" data-testid="sale-review">
      {mine ? (
        <ReviewBox title="Your review" review={mine}>
          {mine.published ? null : (
            <p className="text-slate-600 text-xs">
              Shown to the {otherSide} once they review you too, or 14 days after the sale completed.
            </p>
          )}
        </ReviewBox>
      ) : isOpen ? (
        <ReviewForm bookingId={bookingId} otherSide={otherSide} onDone={() => setIsOpen(false)} />
      ) : (
        <Button variant="secondary" size="sm" onClick={() => setIsOpen(true)}>
          Leave a review
        </Button>
      )}
      {theirs ? <ReviewBox title={`The ${otherSide}'s review of you`} review={theirs} /> : null}
    </div>
  )
}

function ReviewBox({
  title,
  review,
  children,
}: {
  title: string
  review: Review
  children?: React.ReactNode
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
      <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
        {title} <Stars rating={review.rating} />
      </p>
      <p className="mt-1 whitespace-pre-line text-slate-700">{review.text}</p>
      {children}
    </div>
  )
}

function ReviewForm({
  bookingId,
  otherSide,
  onDone,
}: {
  bookingId: string
  otherSide: 'seller' | 'buyer'
  onDone: () => void
}) {
  const write = useWriteReview(bookingId)
  const groupId = useId()
  const [rating, setRating] = useState(0)
  const [text, setText] = useState('')
  const [errors, setErrors] = useState<{ rating?: string; text?: string }>({})

  async function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = NewReview.safeParse({ rating, text })
    if (!parsed.success) {
      const fields: { rating?: string; text?: string } = {}
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as 'rating' | 'text'
        fields[key] ??= issue.message
      }
      setErrors(fields)
      return
    }
    setErrors({})
    try {
      await write.mutateAsync(parsed.data)
      toast.success('Thank you for your review')
      onDone()
    } catch (err) {
      if (isApiError(err) && err.fields) setErrors(err.fields)
      else toast.error(isApiError(err) ? err.message : 'The review could not be saved')
    }
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-3 rounded-lg border border-slate-200 bg-white p-3">
      <fieldset aria-describedby={errors.rating ? `${groupId}-error` : undefined}>
        <legend className="mb-1 font-medium text-slate-800 text-sm">Your rating of the {otherSide}</legend>
        <div className="flex gap-1">
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className="cursor-pointer">
              <input
                type="radio"
                name={`${groupId}-rating`}
                value={n}
                aria-label={`${n} star${n === 1 ? '' : 's'}`}
                checked={rating === n}
                onChange={() => setRating(n)}
                className="peer sr-only"
              />
              <span
                className={cn(
                  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg border text-xl peer-focus-visible:outline-3 peer-focus-visible:outline-accent',
                  n <= rating
                    ? 'border-amber-400 bg-amber-50 text-amber-500'
                    : 'border-slate-300 text-slate-400',
                )}
              >
                <span aria-hidden="true">★</span>
              </span>
            </label>
          ))}
        </div>
        {errors.rating ? (
          <p id={`${groupId}-error`} className="mt-1 text-red-700 text-sm">
            {errors.rating}
          </p>
        ) : null}
      </fieldset>
      <FormField
        label="Your review"
        hint={`What went well, or not. Shown on the ${otherSide === 'seller' ? "seller's page" : "buyer's orders"}.`}
        error={errors.text}
      >
        <textarea
          rows={3}
          maxLength={REVIEW_TEXT_MAX}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={write.isPending}>
          {write.isPending ? 'Sending…' : 'Send review'}
        </Button>
        <Button type="button" size="sm" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
