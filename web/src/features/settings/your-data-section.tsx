import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { paths } from '#contract/pages'
import { Button, buttonClasses } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { FormField } from '../../components/ui/form-field'
import { api, errorMessage } from '../../lib/api-client'

/** Take your data (one JSON file), or erase your account (password, and a code when two-step is on). */
export function YourDataSection({ needsCode }: { needsCode: boolean }) {
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)

  const ask = (e: FormEvent) => {
    e.preventDefault()
    setError(null)
    setConfirming(true)
  }

  const erase = async () => {
    setBusy(true)
    try {
      await api.delete<unknown>('/me', { password, ...(needsCode ? { code } : {}) })
      window.location.assign(paths.home())
    } catch (err) {
      setError(errorMessage(err, 'Your account could not be erased. Please try again.'))
      setConfirming(false)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section
      aria-labelledby="data-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
    >
      <h2 id="data-heading" className="font-semibold text-lg text-slate-900">
        Your data
      </h2>
      <p className="mt-1 text-slate-600 text-sm">
        One JSON file with everything we hold about you: profile, listings, bookings, messages you wrote,
        reviews, favourites, saved searches, payouts and security events.
      </p>
      <a href="/api/me/export" download className={buttonClasses('secondary', 'md', 'mt-3')}>
        Download my data
      </a>

      <h3 className="mt-6 font-semibold text-slate-900">Erase my account</h3>
      <p className="mt-1 text-slate-600 text-sm">
        Your name, address and phone are erased, your listings leave the catalogue and you are signed out
        everywhere. Records the law requires (payments, payouts) are kept under an anonymous id.{' '}
        <Link to="/privacy" className="font-semibold text-accent hover:underline">
          What we keep and why
        </Link>
      </p>
      <form onSubmit={ask} className="mt-3 space-y-3" aria-label="Erase my account">
        <FormField label="Your password" error={needsCode ? undefined : (error ?? undefined)}>
          <input
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </FormField>
        {needsCode ? (
          <FormField label="Code from your authenticator app" error={error ?? undefined}>
            <input
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              maxLength={32}
            />
          </FormField>
        ) : null}
        <Button type="submit" variant="danger-outline" disabled={!password || (needsCode && !code.trim())}>
          Erase my account
        </Button>
      </form>
      {confirming ? (
        <ConfirmDialog
          title="Erase your account?"
          description="This cannot be undone. You will be signed out everywhere."
          confirmLabel="Erase for good"
          isPending={busy}
          onConfirm={erase}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  )
}
