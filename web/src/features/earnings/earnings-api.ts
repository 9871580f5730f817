import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Earnings, Finance, PayoutAccount, TestBankAccount } from '#contract/payouts'
import { api } from '../../lib/api-client'
import { moneyKeys } from '../../lib/query-keys'

export function usePayoutAccount() {
  return useQuery({
    queryKey: moneyKeys.payoutAccount(),
    queryFn: ({ signal }) => api.get<PayoutAccount>('/payouts/account', undefined, signal),
  })
}

/** Test mode: the bank account (enabled at once). With Stripe: the onboarding link to go to. */
export function useSetUpPayouts() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (bank: TestBankAccount | Record<string, never>) =>
      api.post<{ url: string }>('/payouts/account', bank),
    onSettled: () => queryClient.invalidateQueries({ queryKey: moneyKeys.all }),
  })
}

/** "Undo this change" from the email about a change of payout details: the previous details come back. */
export function useUndoPayoutChange() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (changeId: string) =>
      api.post<PayoutAccount>(`/payouts/account/changes/${encodeURIComponent(changeId)}/undo`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: moneyKeys.all }),
  })
}

export function useEarnings() {
  return useQuery({
    queryKey: moneyKeys.earnings(),
    queryFn: ({ signal }) => api.get<Earnings>('/earnings', undefined, signal),
    // Payouts land on their own: keep the figures fresh while the page is open.
    refetchInterval: 10_000,
  })
}

export function useFinance() {
  return useQuery({
    queryKey: moneyKeys.finance(),
    queryFn: ({ signal }) => api.get<Finance>('/finance', undefined, signal),
    refetchInterval: 15_000,
  })
}
