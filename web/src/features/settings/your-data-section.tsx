import { useQuery } from '@tanstack/react-query'
import { CircleAlert } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import type { ErasureCheck } from '#contract/account'
import { paths } from '#contract/pages'
import { buttonClasses } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { api } from '../../lib/api-client'
import { securityKeys } from '../../lib/query-keys'
import { APP_OR_BACKUP_CODE, PasswordCodeForm, usePasswordCode } from './password-code-form'

/** Take your data (a JSON file and a summary page), or erase your account (password, and a code when two-step is on). */
export function YourDataSection({ needsCode }: { needsCode: boolean }) {
  const fields = usePasswordCode()
  const { password, code, setError, isBusy, run } = fields
  const [confirming, setConfirming] = useState(false)
  // The server's own rule, asked before the form asks for anything: with a sale open or money held, the person is
  // told why and what to do first instead of typing a password to be refused. (The erasure checks it again.)
  const check = useQuery({
    queryKey: securityKeys.erasure(),
    queryFn: ({ signal }) => api.get<ErasureCheck>('/me/erasure', undefined, signal),
  })
  const blocked = check.data && !check.data.can_erase ? check.data.reason : null

  const ask = () => {
    setError(null)
    setConfirming(true)
  }

  const erase = async () => {
    const isErased = await run(async () => {
      await api.delete<unknown>('/me', { password, ...(needsCode ? { code } : {}) })
      window.location.assign(paths.accountErased())
    }, 'Your account could not be erased. Please try again.')
    if (!isErased) setConfirming(false)
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
        Everything we hold about you (profile, listings, bookings, messages you wrote, reviews, favourites,
        saved searches, payouts and every security event) as one JSON file in named sections, and a short
        summary page you can open in a browser.{' '}
        <Link to="/privacy#your-data-export" className="font-semibold text-accent hover:underline">
          What the file holds
        </Link>
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <a href="/api/me/export" download className={buttonClasses('secondary', 'md')}>
          Download my data (JSON)
        </a>
        <a href="/api/me/export/summary" download className={buttonClasses('secondary', 'md')}>
          Download a summary (HTML)
        </a>
      </div>

      <h3 className="mt-6 font-semibold text-slate-900">Erase my account</h3>
      <p className="mt-1 text-slate-600 text-sm">
        Your name, address and phone are erased, your listings leave the catalogue and you are signed out
        everywhere. Records the law requires (payments, payouts) are kept under an anonymous id.{' '}
        <Link to="/privacy" className="font-semibold text-accent hover:underline">
          What we keep and why
        </Link>
      </p>
      {blocked ? (
        <div
          role="status"
          className="mt-3 flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 text-sm"
        >
          <CircleAlert aria-hidden className="size-5 shrink-0" />
          <div className="space-y-2">
            <p className="font-semibold">You cannot erase your account yet</p>
            <p>{blocked}</p>
            <p>
              What you bought is under{' '}
              <Link to={paths.myOrders()} className="font-semibold underline">
                My Orders
              </Link>
              , what you sold under{' '}
              <Link to={paths.myProduct()} className="font-semibold underline">
                My Product
              </Link>
              .
            </p>
          </div>
        </div>
      ) : (
        <PasswordCodeForm
          fields={fields}
          label="Erase my account"
          askPassword
          // The server takes a backup code here too, so the field says so, in the words of the turn-off form.
          code={needsCode ? APP_OR_BACKUP_CODE : undefined}
          submitLabel="Erase my account"
          submitVariant="danger-outline"
          onSubmit={ask}
          className="mt-3 space-y-3"
        />
      )}
      {confirming ? (
        <ConfirmDialog
          title="Erase your account?"
          description="This cannot be undone. You will be signed out everywhere."
          confirmLabel="Erase for good"
          isPending={isBusy}
          onConfirm={erase}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </section>
  )
}
