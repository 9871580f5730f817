import { useQuery } from '@tanstack/react-query'
import type { Brand } from '#contract/brands'
import { api } from '../../lib/api-client'

export const brandKeys = { all: ['brands'] as const }

export function useBrands() {
  return useQuery({
    queryKey: brandKeys.all,
    queryFn: ({ signal }) => api.get<Brand[]>('/brands', undefined, signal),
    staleTime: 5 * 60_000,
  })
}
