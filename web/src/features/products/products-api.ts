import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { Product } from '#contract/products'
import type { SearchResult as ApiSearchResult, SearchQuery } from '#contract/search'
import { api } from '../../lib/api-client'
import { fetchListPage, type PageRequest } from '../../lib/paged-list'
import { productKeys } from '../../lib/query-keys'

/** Filters as the browse page keeps them in the URL; every value optional. */
/**
 * The browse page's filters, from the search API's own query (contract/search.ts): one choice per filter where the
 * API takes several (the page offers one), and the page's own paging.
 */
export type ProductFilters = {
  [K in Exclude<keyof SearchQuery, 'facets' | 'limit' | 'sort'>]?: OneOf<NonNullable<SearchQuery[K]>>
} & { sort?: string }
type OneOf<T> = T extends readonly (infer E)[] ? E : T

export { productKeys }

/** A brand's laptops a page at a time ("Load more"), following the server's next-page headers. */
export function useBrandProducts(brandId: string) {
  return useInfiniteQuery({
    queryKey: productKeys.category(brandId),
    queryFn: ({ pageParam, signal }) => fetchListPage<Product>(pageParam, signal),
    initialPageParam: { path: `/category/${encodeURIComponent(brandId)}` } as PageRequest,
    getNextPageParam: (last) => last.next ?? undefined,
  })
}

export function useProduct(id: string) {
  return useQuery({
    queryKey: productKeys.detail(id),
    queryFn: ({ signal }) => api.get<Product>(`/products/${encodeURIComponent(id)}`, undefined, signal),
    // A "not found" the server rendered stays shown rather than asked again (a 4xx answer is final).
    retryOnMount: false,
  })
}

/** A page of search results (GET /api/search with facet counts). */
export type SearchResult = ApiSearchResult

/**
 * Keeps the previous page on screen while the next one loads, so the grid does not jump. Facet counts
 * come with every page, so the filters always say what each choice would leave.
 */
export function useProductSearch(filters: ProductFilters) {
  return useQuery({
    queryKey: productKeys.search(filters),
    queryFn: ({ signal }) => api.get<SearchResult>('/search', { ...filters, facets: 1 }, signal),
    placeholderData: keepPreviousData,
  })
}

/** Tells the server this listing's page was seen (once per page visit; it counts a visitor once a day). */
export function useCountView(productId: string | undefined) {
  useEffect(() => {
    if (!productId) return
    api.post(`/products/${encodeURIComponent(productId)}/views`).catch(() => {
      // A view that could not be counted is not the visitor's problem.
    })
  }, [productId])
}
