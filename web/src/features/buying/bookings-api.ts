import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef } from 'react'
import type { z } from 'zod'
import type { Booking, HoldAnswer, HoldBody } from '#contract/bookings'
import type { Inserted } from '#contract/common'
import type { ShippingLabelAnswer } from '#contract/delivery'
import type { HandoverChecklist } from '#contract/handover'
import type {
  PaymentConfig,
  PaymentIntentAnswer as PaymentIntentAnswerSchema,
  PaymentResult as PaymentResultSchema,
  TestCard,
} from '#contract/payments'
import { api } from '../../lib/api-client'
import { fetchListPage, type PageRequest } from '../../lib/paged-list'
import { bookingKeys, dashboardKeys, paymentKeys, productKeys } from '../../lib/query-keys'

type InsertedAnswer = z.infer<typeof Inserted>

export type BookingRequest = { productId: string; phoneNumber: string; location: string }
export type PaymentResult = z.infer<typeof PaymentResultSchema>
export type PaymentIntentAnswer = z.infer<typeof PaymentIntentAnswerSchema>

export { bookingKeys }

/** Only GET /api/bookings?email= is called with the signed-in user's own email. */
export function useMyBookings(email: string | undefined) {
  return useInfiniteQuery({
    queryKey: bookingKeys.mine(email ?? ''),
    queryFn: ({ pageParam, signal }) => fetchListPage<Booking>(pageParam, signal),
    initialPageParam: { path: '/bookings', query: { email } } as PageRequest,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: Boolean(email),
  })
}

/** The signed-in buyer's booking of this listing, if they booked it (null when not): Book Now reads it. */
export function useMyBookingOf(productId: string, email: string | undefined) {
  return useQuery({
    queryKey: bookingKeys.ofProduct(email ?? '', productId),
    queryFn: async ({ signal }) => {
      const list = await api.get<Booking[]>(
        '/bookings',
        { email: email ?? '', product_id: productId },
        signal,
      )
      return list[0] ?? null
    },
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
    queryKey: paymentKeys.config(),
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
    queryKey: paymentKeys.intent(bookingId),
    queryFn: () => api.post<PaymentIntentAnswer>('/payments/intent', { bookingId }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}

/**
 * The payment page's hold on the laptop for this booking while the buyer pays. Opening the page asks for it: the
 * server takes the booking's first hold, answers a live one as it is (it is not extended, so a remount or a second
 * tab changes nothing), and takes none once a hold of the booking has ended (409 HOLD_ENDED). `holdAgain` is the
 * buyer's "Hold it again" (or "Check again" while another buyer holds it): only it may take a new hold.
 */
export function useHold(bookingId: string) {
  // Read when the request is made: a click sets it, then refetches.
  const asked = useRef(false)
  const hold = useQuery({
    queryKey: paymentKeys.hold(bookingId),
    queryFn: () =>
      api.post<HoldAnswer>(
        `/bookings/${encodeURIComponent(bookingId)}/hold`,
        asked.current ? ({ again: true } satisfies HoldBody) : undefined,
      ),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
  const holdAgain = () => {
    asked.current = true
    return hold.refetch()
  }
  return { hold, holdAgain }
}

/** The buyer calls off their unpaid booking; the seller is told. */
export function useCancelBooking() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (bookingId: string) =>
      api.put<{ modifiedCount: number }>(`/bookings/${encodeURIComponent(bookingId)}/cancel-booking`),
    onSettled: (_answer, _error, bookingId) => {
      queryClient.removeQueries({ queryKey: paymentKeys.hold(bookingId) })
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
        // The laptop it held is free for others: cards and pages say so.
        queryClient.invalidateQueries({ queryKey: productKeys.all }),
      ])
    },
  })
}

/** A move of the deal changes the buyer's orders, the seller's My Product and the dashboards' figures. */
function useRefreshAfterDealMove() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: bookingKeys.all }),
      queryClient.invalidateQueries({ queryKey: productKeys.sellers() }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
    ])
}

type ModifiedAnswer = { modifiedCount: number }
const bookingPath = (id: string, step: string) => `/bookings/${encodeURIComponent(id)}/${step}`

/** The listing's seller: the buyer has the laptop (with an optional note). */
export function useMarkHandedOver() {
  const refresh = useRefreshAfterDealMove()
  return useMutation({
    mutationFn: ({ bookingId, note }: { bookingId: string; note: string }) =>
      api.put<ModifiedAnswer>(bookingPath(bookingId, 'handed-over'), note.trim() ? { note } : {}),
    // Not awaited: the sale leaves My Product's "Needs action" tab with the refresh, and the page's own
    // callbacks (the toast) must run before its row goes.
    onSettled: () => {
      void refresh()
    },
  })
}

/** The listing's seller buys a shipped sale's label (the same parcel if bought already): the deal ships. */
export function useBuyShippingLabel() {
  const refresh = useRefreshAfterDealMove()
  return useMutation({
    mutationFn: (bookingId: string) => api.post<ShippingLabelAnswer>(bookingPath(bookingId, 'label')),
    onSettled: () => {
      void refresh()
    },
  })
}

/** The listing's seller: cannot hand it over, so the sale is cancelled and the buyer refunded in full. */
export function useCancelSale() {
  const refresh = useRefreshAfterDealMove()
  return useMutation({
    mutationFn: ({ bookingId, reason }: { bookingId: string; reason: string }) =>
      api.put<ModifiedAnswer>(bookingPath(bookingId, 'cancel'), { reason }),
    // Not awaited: the sale leaves My Product's "Needs action" tab with the refresh, and the page's own
    // callbacks (the toast) must run before its row goes.
    onSettled: () => {
      void refresh()
    },
  })
}

/** The buyer: received, as described; the sale is completed. */
export function useConfirmReceived() {
  const refresh = useRefreshAfterDealMove()
  return useMutation({
    mutationFn: ({ bookingId, checklist }: { bookingId: string; checklist: HandoverChecklist }) =>
      api.put<ModifiedAnswer>(bookingPath(bookingId, 'received'), { checklist }),
    onSettled: refresh,
  })
}

/** The buyer: something is wrong; an admin looks at it. */
export function useReportProblem() {
  const refresh = useRefreshAfterDealMove()
  return useMutation({
    mutationFn: ({
      bookingId,
      reason,
      checklist,
    }: {
      bookingId: string
      reason: string
      checklist?: HandoverChecklist
    }) => api.post<InsertedAnswer>(bookingPath(bookingId, 'problem'), { reason, checklist }),
    onSettled: refresh,
  })
}
