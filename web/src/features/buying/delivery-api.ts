import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Booking } from '#contract/bookings'
import type { DeliveryChoiceBody, PostalAddressInput, RateQuoteAnswer } from '#contract/delivery'
import { api } from '../../lib/api-client'
import { bookingKeys, paymentKeys } from '../../lib/query-keys'

/** The carrier's rates to an address for this booking (nothing is kept until a rate is chosen). */
export function useShippingRates(bookingId: string) {
  return useMutation({
    mutationFn: (address: PostalAddressInput) =>
      api.post<RateQuoteAnswer>(`/bookings/${encodeURIComponent(bookingId)}/shipping-rates`, { address }),
  })
}

/** The buyer's choice (meet, or ship at a quoted rate); the booking comes back with its delivery and total. */
export function useChooseDelivery(bookingId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (choice: DeliveryChoiceBody) =>
      api.put<Booking>(`/bookings/${encodeURIComponent(bookingId)}/delivery`, choice),
    onSuccess: (booking) => {
      queryClient.setQueryData(bookingKeys.detail(bookingId), booking)
      // A Stripe intent asked for before was for the old amount: the card form asks for one at the new amount.
      queryClient.removeQueries({ queryKey: paymentKeys.intent(bookingId) })
      return queryClient.invalidateQueries({ queryKey: bookingKeys.all, refetchType: 'none' })
    },
  })
}
