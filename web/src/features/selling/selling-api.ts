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
  const invalidate = useInvalidateProducts()
  return useMutation({
    mutationFn: (id: string) => api.put<ModifiedBody>(`/advertise/product/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  })
}

export function useMarkProductSold() {
  const invalidate = useInvalidateProducts()
  return useMutation({
    mutationFn: (id: string) => api.put<ModifiedBody>(`/products/${encodeURIComponent(id)}/sold`),
    onSuccess: invalidate,
  })
}

export function useDeleteProduct() {
  const invalidate = useInvalidateProducts()
  return useMutation({
    mutationFn: (id: string) => api.delete<DeletedBody>(`/products/${encodeURIComponent(id)}`),
    onSuccess: invalidate,
  })
}
