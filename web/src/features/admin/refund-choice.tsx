import { useId, useState } from 'react'
import type { Dispute } from '#contract/bookings'

export type RefundChoice = 'refund_now' | 'return_first'

/** Whether the buyer has the laptop, so that an admin's refund can ask for it back first. */
export const buyerHasLaptop = (dispute: Dispute) => dispute.booking.handedOverAt !== null

/**
 * An admin's refund of a laptop the buyer has: "Refund now" (the laptop is not returned) or "Return first" (an
 * accepted return opens; a shipped sale's label is bought at the seller's cost, and the buyer is refunded once the
 * seller confirms it came back as sent). The reason field is shared: both sides read it either way.
 */
export function RefundChoiceField({
  dispute,
  choice,
  onChange,
}: {
  dispute: Dispute
  choice: RefundChoice
  onChange: (choice: RefundChoice) => void
}) {
  const name = useId()
  const options: { value: RefundChoice; label: string; hint: string }[] = [
    {
      value: 'refund_now',
      label: 'Refund now',
      hint: 'The buyer gets the money back now and keeps the laptop; any return is agreed between them.',
    },
    {
      value: 'return_first',
      label: 'Return first',
      hint: `The laptop comes back first: a return label at ${dispute.seller.name}’s cost for a shipped sale, handed back for a met one. The buyer is refunded once the seller confirms it is as sent.`,
    },
  ]
  return (
    <fieldset className="space-y-2" data-testid="refund-choice">
      <legend className="font-medium text-slate-800 text-sm">Does the laptop come back first?</legend>
      {options.map((o) => (
        <label key={o.value} className="flex gap-2 rounded-lg border border-slate-200 p-2 text-sm">
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={choice === o.value}
            onChange={() => onChange(o.value)}
            className="mt-1"
          />
          <span>
            <span className="block font-medium text-slate-900">{o.label}</span>
            <span className="block text-slate-600">{o.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

/** The choice's state, reset with the dialog. */
export function useRefundChoice() {
  const [choice, setChoice] = useState<RefundChoice>('refund_now')
  return { choice, setChoice, reset: () => setChoice('refund_now') }
}
