import { useQuery } from '@tanstack/react-query'
import type { Brand } from '#contract/brands'
import { api } from '../../lib/api-client'
import { brandKeys } from '../../lib/query-keys'

export { brandKeys }

export function useBrands() {
  return useQuery({
    queryKey: brandKeys.list(),
    queryFn: ({ signal }) => api.get<Brand[]>('/brands', undefined, signal),
    staleTime: 5 * 60_000,
  })
}
