import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { UserRecord } from '#contract/users'
import { api, apiRequestWithHeaders } from '../../lib/api-client'
import { adminKeys, dashboardKeys } from '../../lib/query-keys'

export type UserKind = 'buyer' | 'seller'
export const USERS_PAGE_SIZE = 20

export type UserPage = { items: UserRecord[]; total: number }

/** One page of buyers or sellers; the server counts the matches into x-total-count. */
/** All Buyers shows its buyers and its admins apart. */
export type BuyerRole = 'buyer' | 'admin'

export async function fetchUserPage(
  kind: UserKind,
  q: string,
  page: number,
  signal?: AbortSignal,
  role?: BuyerRole,
): Promise<UserPage> {
  const { data, headers } = await apiRequestWithHeaders<UserRecord[]>(`/${kind}s`, {
    query: { q, page, page_size: USERS_PAGE_SIZE, ...(kind === 'buyer' && role ? { role } : {}) },
    signal,
  })
  const total = Number(headers.get('x-total-count'))
  return { items: data, total: Number.isFinite(total) ? total : data.length }
}

export function useUserPage(kind: UserKind, q: string, page: number, role?: BuyerRole) {
  return useQuery({
    queryKey: adminKeys.users(kind, { q, page, role }),
    queryFn: ({ signal }) => fetchUserPage(kind, q, page, signal, role),
    // The table keeps the last page on screen while the next one loads, instead of flashing skeletons.
    placeholderData: keepPreviousData,
  })
}

/** A change to one user shows in every cached page of both lists and in the overview counts. */
function useInvalidateUsers() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.all }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all }),
    ])
}

export function useMakeAdmin() {
  const invalidate = useInvalidateUsers()
  return useMutation({
    mutationFn: (user: UserRecord) => api.put<{ modifiedCount: number }>(`/buyers/admin/${user._id}`),
    onSuccess: invalidate,
  })
}

export function useRemoveAdmin() {
  const invalidate = useInvalidateUsers()
  return useMutation({
    mutationFn: (user: UserRecord) => api.delete<{ modifiedCount: number }>(`/buyers/admin/${user._id}`),
    onSuccess: invalidate,
  })
}

export function useVerifySeller() {
  const invalidate = useInvalidateUsers()
  return useMutation({
    mutationFn: (user: UserRecord) =>
      api.put<{ modifiedCount: number }>(`/sellers/verify/${user._id}`, { verified: true }),
    onSuccess: invalidate,
  })
}

export function useDeleteUser(kind: UserKind) {
  const invalidate = useInvalidateUsers()
  return useMutation({
    mutationFn: (user: UserRecord) =>
      api.delete<{ deletedCount: number; name: string }>(`/${kind}s/${user._id}`),
    onSuccess: invalidate,
  })
}
