import { AdminRefundBody } from '#contract/refunds'
import { useReasonField } from '../../components/reason-field'

/** The reason an admin gives for a refund (required): both sides read it on the deal and in their emails. */
export function useRefundReason() {
  return useReasonField(AdminRefundBody, {
    label: 'Why is the buyer refunded?',
    hint: 'The buyer and the seller both see this, on the deal and in their emails.',
    rows: 3,
    maxLength: 500,
  })
}
