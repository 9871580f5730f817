import { type ReactNode, useState } from 'react'
import type { z } from 'zod'
import { isApiError } from '../lib/api-client'
import { FormField } from './ui/form-field'

type ReasonBody = z.ZodType<{ reason: string }, { reason: string }>

/**
 * The one reason field of the deal's dialogs (a buyer's problem, a seller's cancellation, an admin's refund): a
 * textarea checked against the call's own body schema before it is sent, and showing the server's word on the
 * reason under it. `check` answers the reason to send, or shows why it cannot be sent; `fromServer` is true when
 * the server refused the reason (then shown under the field, the dialog kept open).
 */
export function useReasonField(
  body: ReasonBody,
  look: { label: string; hint?: ReactNode; rows: number; maxLength: number },
) {
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
      const parsed = body.safeParse({ reason })
      if (parsed.success) return parsed.data.reason
      setError(parsed.error.issues[0]?.message)
      return null
    },
    fromServer(err: unknown): boolean {
      if (isApiError(err) && err.fields?.reason) {
        setError(err.fields.reason)
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
