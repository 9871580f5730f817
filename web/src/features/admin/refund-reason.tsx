import { useState } from 'react'
import { AdminRefundBody } from '#contract/refunds'
import { FormField } from '../../components/ui/form-field'
import { isApiError } from '../../lib/api-client'

/**
 * The reason an admin gives for a refund (required): both sides read it on the deal and in their emails. `check`
 * answers the reason to send, or shows why it cannot be sent; `fromServer` shows the server's word on it.
 */
export function useRefundReason() {
  const [reason, setReason] = useState('')
  const [error, setError] = useState<string | undefined>()
  return {
    reason,
    error,
    reset() {
      setReason('')
      setError(undefined)
    },
    check(): string | null {
      const parsed = AdminRefundBody.safeParse({ reason })
      if (parsed.success) return parsed.data.reason
      setError(parsed.error.issues[0]?.message)
      return null
    },
    /** True when the server refused the reason (then shown under the field, the dialog kept open). */
    fromServer(err: unknown): boolean {
      if (isApiError(err) && err.fields?.reason) {
        setError(err.fields.reason)
        return true
      }
      return false
    },
    field: (
      <FormField
        label="Why is the buyer refunded?"
        hint="The buyer and the seller both see this, on the deal and in their emails."
        error={error}
      >
        <textarea
          rows={3}
          maxLength={500}
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
