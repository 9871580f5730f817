import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Inserted } from '#contract/common'
import type { AdminReturn, DecideReturnBody } from '#contract/returns'
import { api } from '../../lib/api-client'
import { adminKeys, bookingKeys, dashboardKeys } from '../../lib/query-keys'

/** Returns waiting for an admin (declined, or not answered), oldest first; or every return, newest first. */
export function useAdminReturns(which: 'awaiting' | 'all') {
  return useQuery({
    queryKey: adminKeys.returns(which),
    queryFn: ({ signal }) => api.get<AdminReturn[]>('/returns', { status: which }, signal),
  })
}

function useRefresh() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [...adminKeys.all, 'returns'] }),
      queryClient.invalidateQueries({ queryKey: adminKeys.disputes() }),
      queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
    ])
}

/** Accept a return (its label is bought at the seller's cost), or refuse it (the sale completes). */
export function useDecideReturn() {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: ({ returnId, body }: { returnId: string; body: DecideReturnBody }) =>
      api.put<{ modifiedCount: number }>(`/returns/${encodeURIComponent(returnId)}/decide`, body),
    onSettled: refresh,
  })
}

/** A dispute's "Return first": the laptop comes back before any refund. */
export function useReturnFirst() {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: ({ disputeId, reason }: { disputeId: string; reason: string }) =>
      api.put<z.infer<typeof Inserted>>(`/disputes/${encodeURIComponent(disputeId)}/return-first`, {
        reason,
      }),
    onSettled: refresh,
  })
}
