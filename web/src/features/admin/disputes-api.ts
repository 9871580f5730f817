import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Dispute } from '#contract/bookings'
import { api } from '../../lib/api-client'
import { adminKeys, bookingKeys, dashboardKeys, productKeys } from '../../lib/query-keys'

/** Open disputes, newest first, each with the sale, both sides and its history. */
export function useOpenDisputes() {
  return useQuery({
    queryKey: adminKeys.disputes(),
    queryFn: ({ signal }) => api.get<Dispute[]>('/disputes', undefined, signal),
  })
}

export type DisputeAction = 'refund' | 'release'

/** Refund the buyer (with the reason both sides see), or release the sale to the seller; either closes the dispute. */
export function useResolveDispute() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ dispute, action, reason }: { dispute: Dispute; action: DisputeAction; reason?: string }) =>
      api.put<{ modifiedCount: number }>(
        `/disputes/${encodeURIComponent(dispute._id)}/${action}`,
        action === 'refund' ? { reason } : undefined,
      ),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.disputes() }),
        queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
        queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
        queryClient.invalidateQueries({ queryKey: productKeys.sellers() }),
      ]),
  })
}
