import { type ReactNode, useState } from 'react'
import type { z } from 'zod'
import { isApiError } from '../lib/api-client'
import { FormField } from './ui/form-field'

/** A call's body with a text field under `key` (its reason, or a note the call needs). */
type ReasonBody<K extends string> = z.ZodType<{ [P in K]?: string }, unknown>

/**
 * The one reason field of the dialogs that send a reason (a buyer's problem or return, a seller's cancellation or
 * answer to a return, an admin's refund or decision on a return, a report of a listing or a review, an admin's
 * rejection of a listing): a textarea checked against the call's own body schema before
 * it is sent, and showing the server's word on the reason under it. `check` answers the reason to send, or shows why
 * it cannot be sent; `fromServer` is true when the server refused the reason (then shown under the field, the dialog
 * kept open). The field is the body's `reason` unless `key` names another (a note); `with` gives the rest of the
 * body the check needs (a choice made elsewhere in the dialog).
 */
export function useReasonField<K extends string = 'reason'>(
  body: ReasonBody<NoInfer<K>>,
  look: { label: string; hint?: ReactNode; rows: number; maxLength: number },
  opts: { key?: K; with?: Record<string, unknown> } = {},
) {
  const key = opts.key ?? ('reason' as K)
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | undefined>()
  return {
    reason,
    error,
    /** Fills the field (a reason chosen elsewhere, such as a checklist item the laptop failed). */
    set(value: string) {
      setReason(value)
      setError(undefined)
    },
    /** The dialog closed: its message goes, what was typed stays for the next time it opens. */
    clearError() {
      setError(undefined)
    },
    reset() {
      setReason('')
      setError(undefined)
    },
    check(): string | null {
      const parsed = body.safeParse({ ...opts.with, [key]: reason })
      if (parsed.success) return parsed.data[key] ?? ''
      const issues = parsed.error.issues
      setError((issues.find((i) => i.path[0] === key) ?? issues[0])?.message)
      return null
    },
    fromServer(err: unknown): boolean {
      const said = isApiError(err) ? err.fields?.[key] : undefined
      if (said) {
        setError(said)
        return true
      }
      return false
    },
    field: (
      <FormField label={look.label} hint={look.hint} error={error}>
        <textarea
          rows={look.rows}
          maxLength={look.maxLength}
          value={reason}
          onChange={(e) => {
            setReason(e.target.value)
            setError(undefined)
          }}
          className="py-2"
        />
      </FormField>
    ),
  }
}
