import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Modified } from '#contract/common'
import type { ListingReviewQueue } from '#contract/listing-reviews'
import { api } from '../../lib/api-client'
import { adminKeys, dashboardKeys, productKeys } from '../../lib/query-keys'

type ModifiedBody = z.infer<typeof Modified>

/** The admin's review queue and its counts (the dashboard menu shows them too). */
export function useListingReviews(enabled = true) {
  return useQuery({
    queryKey: adminKeys.listingReviews(),
    queryFn: ({ signal }) => api.get<ListingReviewQueue>('/listing-reviews', undefined, signal),
    enabled,
  })
}

export type ReviewDecision =
  | { id: string; action: 'approve' }
  | { id: string; action: 'reject'; reason: string }
  | { id: string; action: 'stolen' }

/** Approve, reject with a reason, or mark the listing's serial reported stolen. */
export function useDecideListingReview() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (decision: ReviewDecision) => {
      const id = encodeURIComponent(decision.id)
      if (decision.action === 'approve') return api.put<ModifiedBody>(`/listing-reviews/${id}/approve`)
      if (decision.action === 'reject')
        return api.put<ModifiedBody>(`/listing-reviews/${id}/reject`, { reason: decision.reason })
      return api.post<unknown>('/stolen-serials', { product_id: decision.id })
    },
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: adminKeys.listingReviews() })
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all })
      queryClient.invalidateQueries({ queryKey: productKeys.all })
    },
  })
}
