import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Inserted } from '#contract/common'
import type { BookingReturn, OpenReturnBody, ReturnBackBody } from '#contract/returns'
import { api } from '../../lib/api-client'
import { bookingKeys, dashboardKeys, productKeys } from '../../lib/query-keys'

/** Where a return's photos are uploaded: the booking's own upload (open to its buyer within the window). */
export const returnPhotosUrl = (bookingId: string) =>
  `/api/bookings/${encodeURIComponent(bookingId)}/return-photos`

/** A booking's return, and until when its buyer may open one. */
export function useBookingReturn(bookingId: string, enabled = true) {
  return useQuery({
    queryKey: bookingKeys.return(bookingId),
    queryFn: ({ signal }) =>
      api.get<BookingReturn>(`/bookings/${encodeURIComponent(bookingId)}/return`, undefined, signal),
    enabled,
  })
}

function useRefreshDeal() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
      queryClient.invalidateQueries({ queryKey: productKeys.sellers() }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
    ])
}

/** The buyer returns it: not as described, with the reason, the checklist item that failed and photos. */
export function useOpenReturn() {
  const refresh = useRefreshDeal()
  return useMutation({
    mutationFn: ({ bookingId, body }: { bookingId: string; body: OpenReturnBody }) =>
      api.post<z.infer<typeof Inserted>>(`/bookings/${encodeURIComponent(bookingId)}/return`, body),
    onSettled: refresh,
  })
}

export type SellerReturnStep =
  | { step: 'accept' }
  | { step: 'decline'; reason: string }
  | { step: 'back'; body: ReturnBackBody }

/** The seller accepts or declines a return, or says how the laptop came back. */
export function useAnswerReturn() {
  const refresh = useRefreshDeal()
  return useMutation({
    mutationFn: ({ bookingId, answer }: { bookingId: string; answer: SellerReturnStep }) => {
      const base = `/bookings/${encodeURIComponent(bookingId)}/return`
      if (answer.step === 'accept') return api.put<{ modifiedCount: number }>(`${base}/accept`)
      if (answer.step === 'decline')
        return api.put<{ modifiedCount: number }>(`${base}/decline`, { reason: answer.reason })
      return api.put<{ modifiedCount: number }>(`${base}/back`, answer.body)
    },
    onSettled: refresh,
  })
}
