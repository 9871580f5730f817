import { type ReactNode, useId, useRef } from 'react'
import { Button, buttonClasses } from './button'
import { useModalDialog } from './use-modal-dialog'

type ConfirmDialogProps = {
  /** Mounted only while open: the dialog opens as it appears and closes as it goes. */
  title: string
  description?: ReactNode
  confirmLabel?: string
  cancelLabel?: string
  /** Red confirm button for actions that cannot be undone. */
  tone?: 'danger' | 'default'
  isPending?: boolean
  /** The confirm button waits for something (a checklist all ticked). */
  confirmDisabled?: boolean
  /** A wider dialog for longer content. */
  wide?: boolean
  onConfirm: () => void
  onCancel: () => void
}

/**
 * A yes/no question in a modal <dialog>: the browser keeps focus inside, Escape cancels, and the page
 * behind is hidden from screen readers. Cancel has the first focus, so Enter never destroys anything.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel = 'Delete',
  cancelLabel = 'Cancel',
  tone = 'danger',
  isPending = false,
  confirmDisabled = false,
  wide = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const cancelRef = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  const descriptionId = useId()
  // Focus returns to the button that asked the question.
  useModalDialog(dialogRef, { focus: () => cancelRef.current?.focus(), onEscape: onCancel })

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      className={`m-auto w-[calc(100%-2rem)] ${wide ? 'max-w-xl' : 'max-w-md'} rounded-xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50 max-h-[calc(100dvh-2rem)] overflow-y-auto`}
    >
      <h2 id={titleId} className="font-semibold text-lg">
        {title}
      </h2>
      {description ? (
        <div id={descriptionId} className="mt-2 text-slate-600 text-sm">
          {description}
        </div>
      ) : null}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button
          ref={cancelRef}
          type="button"
          className={buttonClasses('secondary')}
          onClick={onCancel}
          disabled={isPending}
        >
          {cancelLabel}
        </button>
        <Button
          variant={tone === 'danger' ? 'danger' : 'primary'}
          onClick={onConfirm}
          disabled={isPending || confirmDisabled}
        >
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  )
}
