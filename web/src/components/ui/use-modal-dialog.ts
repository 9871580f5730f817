import { type RefObject, useEffect, useRef } from 'react'

type ModalDialogOptions = {
  /** Puts focus on the first thing to use (a field, or the safe button). */
  focus?: () => void
  /** Takes Escape instead of the browser closing the dialog at once (the holder then unmounts it). */
  onEscape?: () => void
}

/**
 * Shows a native <dialog> as a modal for as long as the component holding it is mounted: the browser keeps focus
 * inside and hides the page behind from screen readers. Unmounting closes it and gives focus back to whatever
 * opened it. Returns `close`, which closes it the way Escape would (its `close` event tells the holder).
 */
export function useModalDialog(
  dialogRef: RefObject<HTMLDialogElement | null>,
  options: ModalDialogOptions = {},
): () => void {
  const latest = useRef(options)
  latest.current = options

  useEffect(() => {
    const dialog = dialogRef.current
    if (!dialog) return
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (!dialog.open) dialog.showModal?.()
    latest.current.focus?.()
    const onCancel = (event: Event) => {
      const onEscape = latest.current.onEscape
      if (!onEscape) return
      event.preventDefault()
      onEscape()
    }
    dialog.addEventListener('cancel', onCancel)
    return () => {
      dialog.removeEventListener('cancel', onCancel)
      if (dialog.open) dialog.close?.()
      opener?.focus()
    }
  }, [dialogRef])

  return () => dialogRef.current?.close?.()
}
