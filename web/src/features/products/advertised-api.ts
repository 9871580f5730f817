import type { Product } from '#contract/products'
import { api } from '../../lib/api-client'
import { useAnswer } from '../../lib/bindings'
import { productKeys } from '../../lib/query-keys'

/** The laptops sellers are advertising, for the home page and /advertise. */
export function useAdvertisedProducts() {
  return useAnswer({
    queryKey: productKeys.advertised(),
    queryFn: ({ signal }) => api.get<Product[]>('/advertised_product', undefined, signal),
  })
}
