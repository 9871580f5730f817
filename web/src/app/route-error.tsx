import { Component, type ReactNode } from 'react'
import { buttonClasses } from '../components/ui/button'

type Props = { resetKey: string; children: ReactNode }
type State = { error: Error | null; resetKey: string }

/**
 * Catches a page that failed to render or whose code failed to load (often: a new version was
 * deployed meanwhile). Moving to another page clears it.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey }

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error }
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null
  }

  override render() {
    if (!this.state.error) return this.props.children
    const isChunkError = /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(
      this.state.error.message,
    )
    return (
      <div role="alert" className="mx-auto max-w-lg py-12 text-center">
        <title>Something went wrong · Laptop Market</title>
        <h1 className="font-bold text-3xl text-slate-900">Something went wrong</h1>
        <p className="mt-3 text-slate-600">
          {isChunkError
            ? 'This page could not be loaded. Check your connection, then reload the page.'
            : 'This page could not be shown. Reloading usually helps; if not, please try again later.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <button type="button" className={buttonClasses('primary')} onClick={() => window.location.reload()}>
            Reload the page
          </button>
          <a href="/" className={buttonClasses('secondary')}>
            Go to the home page
          </a>
        </div>
      </div>
    )
  }
}
