import { browserSupportsWebAuthn } from '@simplewebauthn/browser'
import { type FormEvent, useEffect, useState } from 'react'
import { QueryState } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { FormField } from '../../components/ui/form-field'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { utcTime } from '../admin'
import { passkeyErrorMessage } from '../auth'
import { type Passkey, usePasskeyChanges, usePasskeys } from './security-api'

/** Passkeys: sign in with this device's fingerprint, face or PIN instead of a password; add, name, remove. */
export function PasskeysSection() {
  const passkeys = usePasskeys()
  const changes = usePasskeyChanges()
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [removing, setRemoving] = useState<Passkey | null>(null)
  // Known only in the browser: the server's render shows the button, which then explains itself if need be.
  const [supported, setSupported] = useState(true)
  useEffect(() => setSupported(browserSupportsWebAuthn()), [])

  const add = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await changes.add(name)
      setName('')
      toast.success('Passkey added')
    } catch (err) {
      setError(passkeyErrorMessage(err, 'Could not add the passkey. Please try again.'))
    } finally {
      setBusy(false)
    }
  }

  const remove = async () => {
    if (!removing) return
    setBusy(true)
    try {
      await changes.remove(removing.id)
      toast.success('Passkey removed')
      setRemoving(null)
    } catch (err) {
      toast.error(errorMessage(err, 'Could not remove the passkey. Please try again.'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section
      aria-labelledby="passkeys-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
    >
      <h2 id="passkeys-heading" className="font-semibold text-lg text-slate-900">
        Passkeys
      </h2>
      <p className="mt-1 text-slate-600 text-sm">
        Sign in with your fingerprint, face or screen lock instead of a password. A passkey cannot be guessed
        or used on another site, and it counts as two-step sign-in: no code is asked after it.
      </p>

      <QueryState
        query={passkeys}
        errorTitle="Could not load your passkeys"
        errorClassName="mt-4"
        loading={<Skeleton className="mt-4 h-12 w-full" />}
        empty={<p className="mt-3 text-slate-700 text-sm">You have no passkeys yet.</p>}
      >
        {(data) => (
          <ul aria-label="Your passkeys" className="mt-3 divide-y divide-slate-200">
            {data.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    <span className="break-all">{p.name || 'Passkey'}</span>
                    {p.backedUp ? <Badge tone="outline">Synced</Badge> : null}
                  </p>
                  <p className="text-slate-600">
                    Added <time dateTime={p.createdAt}>{utcTime(p.createdAt)}</time>
                  </p>
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy}
                  onClick={() => setRemoving(p)}
                  aria-label={`Remove ${p.name || 'passkey'}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>

      {supported ? (
        <form onSubmit={add} className="mt-4 space-y-3" aria-label="Add a passkey">
          <FormField label="Name (to tell your passkeys apart)" error={error ?? undefined}>
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={60}
              placeholder="e.g. Work laptop"
              autoComplete="off"
            />
          </FormField>
          <Button type="submit" disabled={busy}>
            {busy ? 'Waiting for your device…' : 'Add a passkey'}
          </Button>
        </form>
      ) : (
        <p className="mt-4 text-slate-700 text-sm">This browser cannot make passkeys.</p>
      )}

      {removing ? (
        <ConfirmDialog
          title="Remove this passkey?"
          description={`"${removing.name || 'Passkey'}" will no longer sign you in. You can add it again later.`}
          confirmLabel="Remove"
          isPending={busy}
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </section>
  )
}
