import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Deleted, Inserted, Modified } from '#contract/common'
import type { NewProduct, Product, ProductUpdate } from '#contract/products'
import { api } from '../../lib/api-client'
import { productKeys } from '../products/products-api'

type InsertedBody = z.infer<typeof Inserted>
type ModifiedBody = z.infer<typeof Modified>
type DeletedBody = z.infer<typeof Deleted>

/** Under productKeys.all, so any change to a listing refreshes every list that may show it. */
export const sellingKeys = {
  seller: (email: string) => [...productKeys.all, 'seller', email] as const,
}

/** The seller's own listings, available and sold (GET /api/products?email=). */
export function useSellerProducts(email: string | undefined) {
  return useQuery({
    queryKey: sellingKeys.seller(email ?? ''),
    queryFn: ({ signal }) => api.get<Product[]>('/products', { email }, signal),
    enabled: Boolean(email),
  })
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
    queryClient.setQueriesData<Product[]>({ queryKey: [...productKeys.all, 'seller'] }, (list) =>
      list?.map((p) => (p._id === id ? { ...p, ...patch } : p)),
    )
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
      api.patch<ModifiedBody>(`/products/${encodeURIComponent(id)}`, changes),
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

export function useDeleteProduct() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => api.delete<DeletedBody>(`/products/${encodeURIComponent(id)}`),
    onSuccess: (_data, id) => {
      queryClient.setQueriesData<Product[]>({ queryKey: [...productKeys.all, 'seller'] }, (list) =>
        list?.filter((p) => p._id !== id),
      )
      return queryClient.invalidateQueries({ queryKey: productKeys.all })
    },
  })
}
