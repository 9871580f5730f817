import { type FormEvent, useId, useRef, useState } from 'react'
import { NewReport } from '#contract/reports'
import { useReasonField } from '../../components/reason-field'
import { Button, buttonClasses } from '../../components/ui/button'
import { useModalDialog } from '../../components/ui/use-modal-dialog'
import { isApiError } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { createReport } from '../admin'

/** "Report this listing"'s dialog: the reason, checked by the report's rules, sent to the admins. */
export function ReportDialog({ productId, onClose }: { productId: string; onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const reason = useReasonField(
    NewReport,
    { label: 'Reason', rows: 4, maxLength: 1000 },
    { with: { productId } },
  )
  const [isSending, setIsSending] = useState(false)
  // A modal <dialog>: the browser keeps focus inside and Escape closes it; focus then goes back to the opener.
  useModalDialog(dialogRef, { onEscape: onClose })

  async function submit(event: FormEvent) {
    event.preventDefault()
    const said = reason.check()
    if (said === null) return
    setIsSending(true)
    try {
      await createReport({ productId, reason: said })
      toast.success('Thank you. An admin will review this listing.')
      onClose()
    } catch (err) {
      setIsSending(false)
      if (!reason.fromServer(err)) toast.error(isApiError(err) ? err.message : 'The report could not be sent')
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
        <div className="mt-4">{reason.field}</div>
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
