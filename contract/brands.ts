import { z } from 'zod'

export const Brand = z.object({
  _id: z.string(),
  brand_name: z.string(),
  brand_img: z.string(),
  product_count: z.number().int(),
})
export type Brand = z.infer<typeof Brand>

export const BrandList = z.array(Brand)
