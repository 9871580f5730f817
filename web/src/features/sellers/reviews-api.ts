import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { MyReviews, NewReview, NewReviewReport, ReportedReview, SellerPage } from '#contract/reviews'
import { api } from '../../lib/api-client'
import { dashboardKeys, productKeys, reviewKeys } from '../../lib/query-keys'

/** A seller's public page: who they are, their rating, their available laptops and published reviews. */
export function useSellerPage(id: string) {
  return useQuery({
    queryKey: reviewKeys.seller(id),
    queryFn: ({ signal }) =>
      api.get<SellerPage>(`/sellers/${encodeURIComponent(id)}/page`, undefined, signal),
    // A "not found" the server rendered stays shown rather than asked again (a 4xx answer is final).
    retryOnMount: false,
  })
}

/** The reviews the signed-in user wrote, and the published ones about them. */
export function useMyReviews(enabled = true) {
  return useQuery({
    queryKey: reviewKeys.mine(),
    queryFn: ({ signal }) => api.get<MyReviews>('/reviews/mine', undefined, signal),
    enabled,
  })
}

export function useWriteReview(bookingId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (review: NewReview) =>
      api.post<{ insertedId: string }>(`/bookings/${encodeURIComponent(bookingId)}/review`, review),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: reviewKeys.all })
      queryClient.invalidateQueries({ queryKey: productKeys.all })
    },
  })
}

export function reportReview(reviewId: string, report: NewReviewReport) {
  return api.post<{ insertedId: string }>(`/reviews/${encodeURIComponent(reviewId)}/report`, report)
}

export function useReportedReviews() {
  return useQuery({
    queryKey: reviewKeys.reported(),
    queryFn: ({ signal }) => api.get<ReportedReview[]>('/reviews/reported', undefined, signal),
  })
}

/** Removing takes the review off the seller's rating and page; dismissing keeps it. Both close its reports. */
export function useModerateReview() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'remove' | 'dismiss' }) =>
      api.put<{ modifiedCount: number }>(`/reviews/${encodeURIComponent(id)}/${action}`),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: reviewKeys.all })
      queryClient.invalidateQueries({ queryKey: productKeys.all })
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all })
    },
  })
}
