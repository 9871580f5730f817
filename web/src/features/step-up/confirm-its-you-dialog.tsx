import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser'
import { KeyRound } from 'lucide-react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { StepUpPasskeyOptions, StepUpState } from '#contract/account'
import { Button, buttonClasses } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { useModalDialog } from '../../components/ui/use-modal-dialog'
import { api, errorMessage, isApiError } from '../../lib/api-client'
import { passkeyErrorMessage } from '../auth'

type Props = { onConfirmed: () => void; onCancel: () => void }

/**
 * "Confirm it's you": the password, or a code from the authenticator app for accounts with two-step sign-in on,
 * or one of the account's passkeys. It holds five minutes for this browser's session (POST /api/me/step-up); the
 * change that asked is then made.
 */
export function ConfirmItsYouDialog({ onConfirmed, onCancel }: Props) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const fieldRef = useRef<HTMLInputElement>(null)
  const passkeyRef = useRef<HTMLButtonElement>(null)
  const titleId = useId()
  const descriptionId = useId()
  const errorId = useId()
  const [state, setState] = useState<StepUpState | null>(null)
  const [useCode, setUseCode] = useState(false)
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | undefined>(undefined)
  const [passkeyError, setPasskeyError] = useState<string | undefined>(undefined)
  const [isBusy, setIsBusy] = useState(false)
  // Known only in the browser (the dialog never renders on the server, but a browser may lack WebAuthn).
  const [webAuthn] = useState(() => browserSupportsWebAuthn())
  const focusFirst = () => (fieldRef.current ?? passkeyRef.current)?.focus()
  useModalDialog(dialogRef, { focus: focusFirst, onEscape: onCancel })

  useEffect(() => {
    let live = true
    api
      .get<StepUpState>('/me/step-up')
      .then((answer) => {
        if (!live) return
        setState(answer)
        if (!answer.password && answer.code) setUseCode(true)
      })
      .catch(() => live && setState({ fresh_until: null, password: true, code: false, passkey: false }))
    return () => {
      live = false
    }
  }, [])

  // The field takes the focus whenever it changes (password or code), so what is typed goes there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refocus when the field changes
  useEffect(() => {
    focusFirst()
  }, [useCode, state])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!value.trim()) return
    setIsBusy(true)
    setError(undefined)
    setPasskeyError(undefined)
    try {
      await api.post<StepUpState>(
        '/me/step-up',
        useCode ? { code: value.replace(/\s/g, '') } : { password: value },
      )
      onConfirmed()
    } catch (err) {
      const fields = isApiError(err) ? err.fields : undefined
      setError(fields?.password ?? fields?.code ?? errorMessage(err))
      setIsBusy(false)
    }
  }

  // The browser's passkey prompt: the account's own passkeys, for this session's challenge.
  const confirmWithPasskey = async () => {
    setIsBusy(true)
    setError(undefined)
    setPasskeyError(undefined)
    try {
      const options = await api.post<StepUpPasskeyOptions>('/me/step-up/passkey-options')
      const passkey = await startAuthentication({
        optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'],
      })
      await api.post<StepUpState>('/me/step-up', { passkey })
      onConfirmed()
    } catch (err) {
      setPasskeyError(passkeyErrorMessage(err, 'Your passkey could not confirm it is you. Please try again.'))
      setIsBusy(false)
    }
  }

  const canPasskey = state?.passkey === true && webAuthn
  const canType = state === null || state.password || state.code
  const noWay = state !== null && !canType && !canPasskey
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md overflow-y-auto rounded-xl border border-slate-200 bg-white p-6 text-slate-900 shadow-xl backdrop:bg-slate-900/50"
    >
      <h2 id={titleId} className="font-semibold text-lg">
        Confirm it's you
      </h2>
      <p id={descriptionId} className="mt-2 text-slate-600 text-sm">
        {noWay
          ? 'Your account has no password yet. Set one with “Forgot password?” on the login page, then try again.'
          : !canType
            ? 'This change needs a fresh check. Use one of your passkeys to go on; it counts for 5 minutes on this device.'
            : useCode
              ? 'This change needs a fresh check. Enter the code your authenticator app shows (or a backup code).'
              : canPasskey
                ? 'This change needs a fresh check. Use one of your passkeys, or enter your password, to go on; it counts for 5 minutes on this device.'
                : 'This change needs a fresh check. Enter your password to go on; it counts for 5 minutes on this device.'}
      </p>
      {noWay ? (
        <div className="mt-6 flex justify-end">
          <button type="button" className={buttonClasses('secondary')} onClick={onCancel}>
            Close
          </button>
        </div>
      ) : (
        <form onSubmit={submit} className="mt-4 space-y-3" aria-label="Confirm it's you">
          {canPasskey ? (
            <>
              <button
                ref={passkeyRef}
                type="button"
                className={buttonClasses(canType ? 'secondary' : 'primary', 'md', 'w-full')}
                onClick={confirmWithPasskey}
                disabled={isBusy}
                aria-describedby={passkeyError ? errorId : undefined}
              >
                <KeyRound aria-hidden="true" className="size-4" />
                Use a passkey
              </button>
              {passkeyError ? (
                <p id={errorId} role="alert" className="text-red-700 text-sm">
                  {passkeyError}
                </p>
              ) : null}
              {canType ? (
                <p className="flex items-center gap-3 text-slate-500 text-xs before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200">
                  or
                </p>
              ) : null}
            </>
          ) : null}
          {!canType ? null : useCode ? (
            <FormField key="code" label="Code from the app (or a backup code)" error={error}>
              <input
                ref={fieldRef}
                autoComplete="one-time-code"
                maxLength={32}
                value={value}
                onChange={(e) => setValue(e.target.value)}
              />
            </FormField>
          ) : (
            <FormField key="password" label="Your password" error={error}>
              <input
                ref={fieldRef}
                type="password"
                autoComplete="current-password"
                maxLength={128}
                value={value}
                onChange={(e) => setValue(e.target.value)}
              />
            </FormField>
          )}
          {canType && state?.code && state.password ? (
            <button
              type="button"
              className="text-accent text-sm underline underline-offset-2"
              onClick={() => {
                setUseCode(!useCode)
                setValue('')
                setError(undefined)
              }}
            >
              {useCode ? 'Use your password instead' : 'Use a code from your authenticator app instead'}
            </button>
          ) : null}
          <div className="flex flex-col-reverse gap-3 pt-3 sm:flex-row sm:justify-end">
            <button type="button" className={buttonClasses('secondary')} onClick={onCancel} disabled={isBusy}>
              Cancel
            </button>
            {canType ? (
              <Button type="submit" disabled={isBusy || !value.trim()}>
                {isBusy ? 'Checking…' : 'Confirm'}
              </Button>
            ) : null}
          </div>
        </form>
      )}
    </dialog>
  )
}
