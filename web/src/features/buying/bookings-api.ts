import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Booking } from '#contract/bookings'
import type { Inserted } from '#contract/common'
import type {
  PaymentConfig,
  PaymentIntentAnswer as PaymentIntentAnswerSchema,
  PaymentResult as PaymentResultSchema,
  TestCard,
} from '#contract/payments'
import { api } from '../../lib/api-client'
import { productKeys } from '../products/products-api'

type InsertedAnswer = z.infer<typeof Inserted>

export type BookingRequest = { productId: string; phoneNumber: string; location: string }
export type PaymentResult = z.infer<typeof PaymentResultSchema>
export type PaymentIntentAnswer = z.infer<typeof PaymentIntentAnswerSchema>

export const bookingKeys = {
  all: ['bookings'] as const,
  mine: (email: string) => [...bookingKeys.all, 'list', email] as const,
  detail: (id: string) => [...bookingKeys.all, 'detail', id] as const,
}

export const paymentConfigKey = ['payments', 'config'] as const

/** Only GET /api/bookings?email= is called with the signed-in user's own email. */
export function useMyBookings(email: string | undefined) {
  return useQuery({
    queryKey: bookingKeys.mine(email ?? ''),
    queryFn: ({ signal }) => api.get<Booking[]>('/bookings', { email }, signal),
    enabled: Boolean(email),
  })
}

/**
 * One booking. With `pollWhileUnpaid`, it is read again every two seconds until it is no longer unpaid:
 * a Stripe payment is final only when Stripe's webhook reaches the server, a moment after the card
 * form says it succeeded.
 */
export function useBooking(id: string, { pollWhileUnpaid = false }: { pollWhileUnpaid?: boolean } = {}) {
  return useQuery({
    queryKey: bookingKeys.detail(id),
    queryFn: ({ signal }) => api.get<Booking>(`/bookings/${encodeURIComponent(id)}`, undefined, signal),
    refetchInterval: (query) => (pollWhileUnpaid && query.state.data?.status === 'unpaid' ? 2000 : false),
  })
}

/** Whether cards go through Stripe or the built-in test processor; fixed while the server runs. */
export function usePaymentConfig() {
  return useQuery({
    queryKey: paymentConfigKey,
    queryFn: ({ signal }) => api.get<PaymentConfig>('/payments/config', undefined, signal),
    staleTime: Number.POSITIVE_INFINITY,
  })
}

export function useCreateBooking() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (booking: BookingRequest) => api.post<InsertedAnswer>('/bookings', booking),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
  })
}

/** A paid booking sells the laptop, so both the bookings and every product list are stale after it. */
function useRefreshAfterPayment() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
      queryClient.invalidateQueries({ queryKey: productKeys.all }),
    ])
}

export function usePayWithTestCard(bookingId: string) {
  const refresh = useRefreshAfterPayment()
  return useMutation({
    mutationFn: (card: TestCard) => api.post<PaymentResult>('/payments/test', { bookingId, card }),
    onSettled: refresh,
  })
}

/**
 * Stripe: the PaymentIntent for this booking. The server keeps one intent per booking (with an
 * idempotency key), so reading it again answers the same intent rather than charging twice.
 */
export function usePaymentIntent(bookingId: string) {
  return useQuery({
    queryKey: ['payments', 'intent', bookingId],
    queryFn: () => api.post<PaymentIntentAnswer>('/payments/intent', { bookingId }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}
