import { useQuery } from '@tanstack/react-query'
import type { AdminDashboard, BuyerDashboard, SellerDashboard } from '#contract/dashboard'
import { api } from '../../lib/api-client'
import { dashboardKeys } from '../../lib/query-keys'

export function useSellerDashboard(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.role('seller'),
    queryFn: ({ signal }) => api.get<SellerDashboard>('/dashboard/seller', undefined, signal),
    enabled,
  })
}

export function useAdminDashboard(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.role('admin'),
    queryFn: ({ signal }) => api.get<AdminDashboard>('/dashboard/admin', undefined, signal),
    enabled,
  })
}

export function useBuyerDashboard(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.role('buyer'),
    queryFn: ({ signal }) => api.get<BuyerDashboard>('/dashboard/buyer', undefined, signal),
    enabled,
  })
}
