import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { FinanceSale } from '#contract/payouts'
import { api } from '../../lib/api-client'
import { bookingKeys, dashboardKeys, moneyKeys } from '../../lib/query-keys'

/**
 * An admin refunds a completed sale (`POST /api/bookings/{id}/refund`): the buyer gets the price back, the seller's
 * share comes back (their Stripe transfer reversed, or out of their balance, below zero if it was paid out).
 */
export function useRefundSale() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ sale, reason }: { sale: FinanceSale; reason: string }) =>
      api.post<{ modifiedCount: number }>(`/bookings/${encodeURIComponent(sale.booking_id)}/refund`, {
        reason,
      }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: moneyKeys.all }),
        queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
        queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
      ]),
  })
}
