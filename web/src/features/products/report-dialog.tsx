import { type FormEvent, useId, useRef, useState } from 'react'
import { NewReport } from '#contract/reports'
import { Button, buttonClasses } from '../../components/ui/button'
import { cn } from '../../components/ui/cn'
import { useModalDialog } from '../../components/ui/use-modal-dialog'
import { isApiError } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { createReport } from '../admin'

/** "Report this listing"'s dialog: the reason, checked by the report's rules, sent to the admins. */
export function ReportDialog({ productId, onClose }: { productId: string; onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const reasonId = useId()
  const errorId = useId()
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [isSending, setIsSending] = useState(false)
  // A modal <dialog>: the browser keeps focus inside and Escape closes it; focus then goes back to the opener.
  useModalDialog(dialogRef, { onEscape: onClose })

  async function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = NewReport.safeParse({ productId, reason })
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Tell us what is wrong with this listing')
      return
    }
    setError(null)
    setIsSending(true)
    try {
      await createReport(parsed.data)
      toast.success('Thank you. An admin will review this listing.')
      onClose()
    } catch (err) {
      setIsSending(false)
      const message = isApiError(err) ? (err.fields?.reason ?? err.message) : 'The report could not be sent'
      if (isApiError(err) && err.fields?.reason) setError(message)
      else toast.error(message)
    }
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <form noValidate onSubmit={submit}>
        <h2 id={titleId} className="font-semibold text-lg">
          Report this listing
        </h2>
        <p className="mt-1 text-slate-600 text-sm">
          Tell us what is wrong: a misleading description, a wrong price, a suspected scam. An admin will
          review it.
        </p>
        <label htmlFor={reasonId} className="mt-4 block font-medium text-slate-800 text-sm">
          Reason
        </label>
        <textarea
          id={reasonId}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          rows={4}
          maxLength={1000}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? errorId : undefined}
          className={cn(
            'mt-1.5 block w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30',
            error ? 'border-red-600' : 'border-slate-300',
          )}
        />
        {error ? (
          <p id={errorId} className="mt-1.5 text-red-700 text-sm">
            {error}
          </p>
        ) : null}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" className={buttonClasses('secondary')} onClick={onClose} disabled={isSending}>
            Cancel
          </button>
          <Button type="submit" disabled={isSending}>
            {isSending ? 'Sending…' : 'Send report'}
          </Button>
        </div>
      </form>
    </dialog>
  )
}
