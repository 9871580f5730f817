import type { Brand } from '#contract/brands'
import { api } from '../../lib/api-client'
import { useAnswer } from '../../lib/bindings'
import { brandKeys } from '../../lib/query-keys'

export { brandKeys }

export function useBrands() {
  return useAnswer({
    queryKey: brandKeys.list(),
    queryFn: ({ signal }) => api.get<Brand[]>('/brands', undefined, signal),
    staleTime: 5 * 60_000,
  })
}
