import { type FormEvent, type ReactNode, useState } from 'react'
import { Button, type ButtonVariant } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { errorMessage } from '../../lib/api-client'

/** A code field: its label, whether the phone should offer digits, and how much it takes. */
export type CodeField = { label: string; isNumeric?: boolean; maxLength: number }

/** The 6-digit code the authenticator app shows (room for the space some apps put in the middle). */
export const APP_CODE: CodeField = { label: 'Code from the app', isNumeric: true, maxLength: 8 }

/** A code from the app, or one of the backup codes (longer, with letters). */
export const APP_OR_BACKUP_CODE: CodeField = { label: 'Code from the app (or a backup code)', maxLength: 32 }

/**
 * What a form that asks "is it you?" holds: the password and code typed, the last refusal and whether a call is
 * under way. One holder can serve several such forms shown one at a time, if each is started with `clear()`.
 */
export function usePasswordCode() {
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [isBusy, setIsBusy] = useState(false)

  /** Runs `work` with the form busy; a failure's message (or `fallback`) goes under the form. True when it worked. */
  const run = async (
    work: () => Promise<void>,
    fallback = 'That did not work. Please try again.',
  ): Promise<boolean> => {
    setIsBusy(true)
    setError(null)
    try {
      await work()
      return true
    } catch (err) {
      setError(errorMessage(err, fallback))
      return false
    } finally {
      setIsBusy(false)
    }
  }

  /** Empties both fields and drops the last refusal: a form shown next starts as new. */
  const clear = () => {
    setPassword('')
    setCode('')
    setError(null)
  }

  return { password, setPassword, code, setCode, error, setError, isBusy, run, clear }
}

export type PasswordCode = ReturnType<typeof usePasswordCode>

type PasswordCodeFormProps = {
  fields: PasswordCode
  /** The form's accessible name. */
  label: string
  /** Asks for "Your password". */
  askPassword?: boolean
  /** Asks for a code, under the password. */
  code?: CodeField
  submitLabel: string
  submitVariant?: ButtonVariant
  /** Called once the browser's submit is stopped; the fields it needs are all filled in by then. */
  onSubmit: () => void
  /** Shows a Cancel button beside the submit button. */
  onCancel?: () => void
  className?: string
  /** What the form says before its fields. */
  children?: ReactNode
}

/**
 * A form that asks for the password, a code, or both: submit stays off until each is filled in and while a call
 * is under way, and a refusal shows under the last field.
 */
export function PasswordCodeForm({
  fields,
  label,
  askPassword = false,
  code,
  submitLabel,
  submitVariant,
  onSubmit,
  onCancel,
  className = 'mt-4 space-y-3',
  children,
}: PasswordCodeFormProps) {
  const error = fields.error ?? undefined
  const isMissing = (askPassword && !fields.password) || (code !== undefined && !fields.code.trim())
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit()
  }
  return (
    <form onSubmit={submit} className={className} aria-label={label}>
      {children}
      {askPassword ? (
        <FormField label="Your password" error={code ? undefined : error}>
          <input
            type="password"
            autoComplete="current-password"
            value={fields.password}
            onChange={(e) => fields.setPassword(e.target.value)}
          />
        </FormField>
      ) : null}
      {code ? (
        <FormField label={code.label} error={error}>
          <input
            inputMode={code.isNumeric ? 'numeric' : undefined}
            autoComplete="one-time-code"
            value={fields.code}
            onChange={(e) => fields.setCode(e.target.value)}
            maxLength={code.maxLength}
          />
        </FormField>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" variant={submitVariant} disabled={fields.isBusy || isMissing}>
          {submitLabel}
        </Button>
        {onCancel ? (
          // Off while a call is under way: its answer belongs to this step, not to the one Cancel would show.
          <Button variant="ghost" onClick={onCancel} disabled={fields.isBusy}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  )
}
