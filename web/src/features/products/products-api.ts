import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { Product, ProductPage } from '#contract/products'
import { api } from '../../lib/api-client'

/** Filters as the browse page keeps them in the URL; every value optional. */
export type ProductFilters = {
  q?: string
  brand?: string
  condition?: string
  min_ram_gb?: number
  min_storage_gb?: number
  max_price?: number
  sort?: string
  page?: number
}

export const productKeys = {
  all: ['products'] as const,
  advertised: () => [...productKeys.all, 'advertised'] as const,
  category: (brandId: string) => [...productKeys.all, 'category', brandId] as const,
  detail: (id: string) => [...productKeys.all, 'detail', id] as const,
  search: (filters: ProductFilters) => [...productKeys.all, 'search', filters] as const,
}

export function useAdvertisedProducts() {
  return useQuery({
    queryKey: productKeys.advertised(),
    queryFn: ({ signal }) => api.get<Product[]>('/advertised_product', undefined, signal),
  })
}

export function useBrandProducts(brandId: string) {
  return useQuery({
    queryKey: productKeys.category(brandId),
    queryFn: ({ signal }) =>
      api.get<Product[]>(`/category/${encodeURIComponent(brandId)}`, undefined, signal),
  })
}

export function useProduct(id: string) {
  return useQuery({
    queryKey: productKeys.detail(id),
    queryFn: ({ signal }) => api.get<Product>(`/products/${encodeURIComponent(id)}`, undefined, signal),
  })
}

/**
 * Keeps the previous page on screen while the next one loads, so the grid does not jump. The page size
 * is the server's default, so a shared link shows the same page to everyone.
 */
export function useProductSearch(filters: ProductFilters) {
  return useQuery({
    queryKey: productKeys.search(filters),
    queryFn: ({ signal }) => api.get<ProductPage>('/search', filters, signal),
    placeholderData: keepPreviousData,
  })
}
