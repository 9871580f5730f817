import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Inserted } from '#contract/common'
import type { Offer, OfferAnswer, OfferRole } from '#contract/offers'
import { api } from '../../lib/api-client'
import { bookingKeys, offerKeys, productKeys } from '../../lib/query-keys'

type InsertedAnswer = z.infer<typeof Inserted>

export { offerKeys }

/** The caller's offers as a buyer, or the offers on their listings (optionally one listing's). */
export function useOffers(role: OfferRole, productId?: string, enabled = true) {
  return useQuery({
    queryKey: offerKeys.list(role, productId),
    queryFn: ({ signal }) => api.get<Offer[]>('/offers', { role, productId }, signal),
    enabled,
  })
}

/** One offer and its thread; read again every half minute while it is open, so time left and answers stay current. */
export function useOffer(id: string) {
  return useQuery({
    queryKey: offerKeys.detail(id),
    queryFn: ({ signal }) => api.get<Offer>(`/offers/${encodeURIComponent(id)}`, undefined, signal),
    refetchInterval: (query) => (query.state.data?.state === 'open' ? 30_000 : false),
  })
}

export function useMakeOffer() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { productId: string; amount: number; note?: string }) =>
      api.post<InsertedAnswer>(`/products/${encodeURIComponent(input.productId)}/offers`, {
        amount: input.amount,
        ...(input.note ? { note: input.note } : {}),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: offerKeys.all }),
  })
}

export type OfferStep =
  | { action: 'accept' }
  | { action: 'withdraw' }
  | { action: 'decline'; reason?: string }
  | { action: 'counter'; amount: number; note?: string }

/** Accept, decline, counter or withdraw; an acceptance also changes bookings and the listing's hold. */
export function useOfferStep(offerId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (step: OfferStep) => {
      const url = `/offers/${encodeURIComponent(offerId)}/${step.action}`
      if (step.action === 'counter')
        return api.put<OfferAnswer>(url, { amount: step.amount, ...(step.note ? { note: step.note } : {}) })
      if (step.action === 'decline')
        return api.put<OfferAnswer>(url, step.reason ? { reason: step.reason } : {})
      return api.put<OfferAnswer>(url)
    },
    onSettled: () => {
      queryClient.invalidateQueries({ queryKey: offerKeys.all })
      queryClient.invalidateQueries({ queryKey: bookingKeys.all })
      queryClient.invalidateQueries({ queryKey: productKeys.all })
    },
  })
}
