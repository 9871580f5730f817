import { type FormEvent, useState } from 'react'
import { PASSWORD_MESSAGES, passwordLengthProblem } from '#contract/passwords'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { errorMessage } from '../../lib/api-client'
import { passwordRefusal, usePasswordAdvice } from '../../lib/password-rule'
import { toast } from '../../lib/toast'
import { useChangePassword } from './security-api'

/** `#password` on Security: the current password and a new one, checked by the password rule while typed. */
export function PasswordSection({
  person,
  isChangeAsked,
}: {
  person: { name: string; email: string }
  isChangeAsked: boolean
}) {
  const [currentPassword, setCurrentPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [newError, setNewError] = useState<string | null>(null)
  const [formError, setFormError] = useState<string | null>(null)
  const change = useChangePassword()
  const advice = usePasswordAdvice(newPassword, person)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setFormError(null)
    const length = passwordLengthProblem(newPassword)
    const refusal = length ? PASSWORD_MESSAGES[length] : await passwordRefusal(newPassword, person)
    setNewError(refusal)
    if (refusal) return
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          setCurrentPassword('')
          setNewPassword('')
          toast.success('Password changed. Every other device was signed out.')
        },
        onError: (err) => setFormError(errorMessage(err, 'Could not change the password. Please try again.')),
      },
    )
  }

  return (
    <section
      id="password"
      aria-labelledby="password-heading"
      className="scroll-mt-24 rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
    >
      <h2 id="password-heading" className="font-semibold text-lg text-slate-900">
        Change your password
      </h2>
      {isChangeAsked ? (
        <p role="status" className="mt-2 rounded-lg bg-amber-50 p-3 text-amber-900 text-sm">
          Your password is one anyone guessing would try early (a common one, or built from your name, email
          or the site's name). Please choose a new one.
        </p>
      ) : null}
      <p className="mt-1 text-slate-600 text-sm">
        At least 6 characters, not a common password and not built from your name, email or the site's name.
        Changing it signs out every other device.
      </p>
      <form onSubmit={submit} className="mt-4 space-y-3" aria-label="Change your password" noValidate>
        <FormField label="Current password">
          <input
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
          />
        </FormField>
        <FormField label="New password" error={newError ?? advice ?? undefined}>
          <input
            type="password"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => {
              setNewPassword(e.target.value)
              setNewError(null)
            }}
          />
        </FormField>
        {formError ? (
          <p role="alert" className="text-red-700 text-sm">
            {formError}
          </p>
        ) : null}
        <Button type="submit" disabled={change.isPending || !currentPassword || !newPassword}>
          {change.isPending ? 'Saving…' : 'Change password'}
        </Button>
      </form>
    </section>
  )
}
