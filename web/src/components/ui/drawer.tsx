import { X } from 'lucide-react'
import { type ReactNode, useId, useRef } from 'react'
import { useModalDialog } from './use-modal-dialog'

type DrawerProps = {
  title: string
  /** Mounted only while open: it opens as it appears and closes as it goes. */
  onClose: () => void
  children: ReactNode
  footer?: ReactNode
}

/**
 * A panel that slides over the page from the side, in a modal <dialog>: the browser keeps focus inside,
 * Escape closes it, the page behind is hidden from screen readers, and focus returns to the opener.
 */
export function Drawer({ title, onClose, children, footer }: DrawerProps) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const closeRef = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  useModalDialog(dialogRef, { focus: () => closeRef.current?.focus(), onEscape: onClose })

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      className="fixed inset-y-0 right-0 left-auto m-0 flex h-dvh max-h-none w-[min(24rem,100%)] max-w-none flex-col bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <div className="flex items-center justify-between gap-3 border-slate-200 border-b px-4 py-3">
        <h2 id={titleId} className="font-semibold text-lg">
          {title}
        </h2>
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          aria-label={`Close ${title.toLowerCase()}`}
          className="inline-flex size-11 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
      <div className="flex-1 overflow-y-auto px-4 py-4">{children}</div>
      {footer ? <div className="border-slate-200 border-t px-4 py-3">{footer}</div> : null}
    </dialog>
  )
}
