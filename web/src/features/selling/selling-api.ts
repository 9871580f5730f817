import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import type { z } from 'zod'
import type { BatteryReportFacts } from '#contract/battery-reports'
import type { Deleted, Inserted, Modified } from '#contract/common'
import type {
  NewProduct,
  Product,
  ProductModified,
  ProductUpdate,
  SellerListingCounts,
  SellerListingState,
} from '#contract/products'
import { api } from '../../lib/api-client'
import { fetchListPage, type ListPage, type PageRequest } from '../../lib/paged-list'
import { productKeys } from '../../lib/query-keys'

type InsertedBody = z.infer<typeof Inserted>
type ModifiedBody = z.infer<typeof Modified>
type DeletedBody = z.infer<typeof Deleted>

/** The seller's own listings, available and sold (GET /api/products?email=), or one state's, or one listing. */
export function useSellerProducts(
  email: string | undefined,
  only: { state?: SellerListingState; product?: string } = {},
  enabled = true,
) {
  return useInfiniteQuery({
    queryKey: productKeys.seller(email ?? '', only),
    queryFn: ({ pageParam, signal }) => fetchListPage<Product>(pageParam, signal),
    initialPageParam: { path: '/products', query: { email, ...only } } as PageRequest,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: Boolean(email) && enabled,
  })
}

/** How many of the seller's listings are in each state (My Product's tabs). */
export function useSellerListingCounts(email: string | undefined) {
  return useQuery({
    // Under the seller lists' key, so whatever refreshes them (a handover, a sale, a delete) refreshes the counts.
    queryKey: [...productKeys.sellers(), 'states', email ?? ''] as const,
    queryFn: ({ signal }) => api.get<SellerListingCounts>('/products/states', { email }, signal),
    enabled: Boolean(email),
  })
}

type SellerPages = InfiniteData<ListPage<Product>, PageRequest>

/** Changes the listings in every loaded page of the seller's lists. */
function updateSellerLists(queryClient: QueryClient, change: (list: Product[]) => Product[]) {
  queryClient.setQueriesData<SellerPages>({ queryKey: productKeys.sellers() }, (data) =>
    data && 'pages' in data
      ? { ...data, pages: data.pages.map((page) => ({ ...page, items: change(page.items) })) }
      : data,
  )
}

function useInvalidateProducts() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: productKeys.all })
}

/**
 * Shows a change on the seller's lists at once (the Advertise button reads "Advertised" as soon as the
 * server agrees), then refetches every list that may show the listing.
 */
function usePatchThenInvalidate(patch: Partial<Product>) {
  const queryClient = useQueryClient()
  return (id: string) => {
    updateSellerLists(queryClient, (list) => list.map((p) => (p._id === id ? { ...p, ...patch } : p)))
    return queryClient.invalidateQueries({ queryKey: productKeys.all })
  }
}

export function useCreateProduct() {
  const invalidate = useInvalidateProducts()
  return useMutation({
    mutationFn: (product: NewProduct) => api.post<InsertedBody>('/products', product),
    onSuccess: invalidate,
  })
}

export function useUpdateProduct(id: string) {
  const invalidate = useInvalidateProducts()
  return useMutation({
    mutationFn: (changes: ProductUpdate) =>
      api.patch<ProductModified>(`/products/${encodeURIComponent(id)}`, changes),
    onSuccess: invalidate,
  })
}

/** Uploads the laptop's own battery report; the listing then shows the facts read from it. */
export function useUploadBatteryReport() {
  const invalidate = useInvalidateProducts()
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) =>
      api.upload<BatteryReportFacts>(`/products/${encodeURIComponent(id)}/battery-report`, file, file.name),
    onSuccess: invalidate,
  })
}

export function useAdvertiseProduct() {
  const settle = usePatchThenInvalidate({ advertise: true })
  return useMutation({
    mutationFn: (id: string) => api.put<ModifiedBody>(`/advertise/product/${encodeURIComponent(id)}`),
    onSuccess: (_data, id) => settle(id),
  })
}

export function useMarkProductSold() {
  const settle = usePatchThenInvalidate({ sellStatus: true })
  return useMutation({
    mutationFn: (id: string) => api.put<ModifiedBody>(`/products/${encodeURIComponent(id)}/sold`),
    onSuccess: (_data, id) => settle(id),
  })
}

/** Renewing restarts a listing's expiry clock; an expired listing is back in search and on the home page. */
export function useRenewProduct() {
  const settle = usePatchThenInvalidate({ expired: false })
  return useMutation({
    mutationFn: (id: string) => api.put<ModifiedBody>(`/products/${encodeURIComponent(id)}/renew`),
    onSuccess: (_data, id) => settle(id),
  })
}

export function useDeleteProduct() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.delete<DeletedBody>(`/products/${encodeURIComponent(id)}`),
    onSuccess: (_data, id) => {
      updateSellerLists(queryClient, (list) => list.filter((p) => p._id !== id))
      return queryClient.invalidateQueries({ queryKey: productKeys.all })
    },
  })
}
