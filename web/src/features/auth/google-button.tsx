import { useState } from 'react'
import { errorMessage } from '../../lib/api-client'
import { startGoogleSignIn, useAuthOptions } from './auth-api'

/** Google's four-colour "G", drawn inline so the login page needs no third-party request. */
function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5">
      <path
        fill="#4285F4"
        d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.8z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z"
      />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1z" />
      <path
        fill="#EA4335"
        d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z"
      />
    </svg>
  )
}

/**
 * "Continue with Google" through OpenID Connect. When the server has no Google credentials the button
 * stays, disabled, and says so instead of failing after a click.
 */
export function GoogleButton({
  returnTo,
  onError,
}: {
  returnTo: string
  onError: (message: string) => void
}) {
  const options = useAuthOptions()
  const [isStarting, setIsStarting] = useState(false)
  const isOff = options.data?.google === false
  const isDisabled = !options.data?.google || isStarting

  async function start() {
    setIsStarting(true)
    try {
      await startGoogleSignIn(returnTo)
    } catch (err) {
      setIsStarting(false)
      onError(errorMessage(err, 'Google sign-in could not start. Please try again.'))
    }
  }

  return (
    <button
      type="button"
      onClick={start}
      disabled={isDisabled}
      className="flex min-h-11 w-full flex-col items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-900 text-sm hover:border-slate-400 hover:bg-slate-50 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:hover:border-slate-300"
    >
      <span className="inline-flex items-center gap-2">
        <GoogleMark />
        {isStarting ? 'Opening Google…' : 'Continue with Google'}
      </span>
      {isOff ? (
        <span className="font-normal text-slate-600 text-xs">Google sign-in is not set up</span>
      ) : null}
    </button>
  )
}
