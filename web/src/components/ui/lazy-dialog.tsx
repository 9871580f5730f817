import {
  Component,
  type ComponentType,
  type ErrorInfo,
  lazy,
  type ReactNode,
  Suspense,
  useState,
} from 'react'
import { ConfirmDialog } from './confirm-dialog'

type LazyDialogProps<P extends object> = {
  /** Loads the dialog's code (a dynamic import); called when the dialog opens, and again on each retry. */
  load: () => Promise<{ default: ComponentType<P> }>
  /** The dialog's own props. */
  props: P
  /** What failed to load, for the message: "The booking form could not be loaded". */
  what: string
  /** Closes the dialog; also what Close does when its code could not be loaded. */
  onClose: () => void
}

/**
 * A dialog whose code loads when it opens. If that code cannot be fetched (the connection dropped, or a new
 * version replaced the files meanwhile), the visitor is told and can try again or close, instead of a click
 * that does nothing.
 */
export function LazyDialog<P extends object>({ load, props, what, onClose }: LazyDialogProps<P>) {
  // React keeps a lazy component's failure for good, so every try needs a lazy component of its own.
  const [attempt, setAttempt] = useState(() => ({ count: 0, Dialog: lazy(load) }))
  const { Dialog } = attempt
  return (
    <DialogCodeBoundary
      key={attempt.count}
      what={what}
      onClose={onClose}
      onRetry={() => setAttempt((a) => ({ count: a.count + 1, Dialog: lazy(load) }))}
    >
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    </DialogCodeBoundary>
  )
}

type BoundaryProps = { what: string; onClose: () => void; onRetry: () => void; children: ReactNode }

class DialogCodeBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true }
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`${this.props.what} could not be loaded`, error, info.componentStack)
  }

  override render() {
    if (!this.state.failed) return this.props.children
    return (
      <ConfirmDialog
        title={`${this.props.what} could not be loaded`}
        description="Check your connection, then try again."
        confirmLabel="Try again"
        cancelLabel="Close"
        tone="default"
        onConfirm={this.props.onRetry}
        onCancel={this.props.onClose}
      />
    )
  }
}
