import { z } from 'zod'

export const NewReport = z.strictObject({
  productId: z.uuid({ message: 'Choose a listing to report' }),
  reason: z
    .string({ error: 'Tell us what is wrong with this listing' })
    .trim()
    .min(10, 'Tell us what is wrong in at least 10 characters')
    .max(1000, 'Keep the reason under 1000 characters'),
})
export type NewReport = z.infer<typeof NewReport>

export const Report = z.object({
  _id: z.string(),
  productId: z.string(),
  productName: z.string(),
  productImage: z.string(),
  sellerName: z.string(),
  reason: z.string(),
  reporterName: z.string(),
  reporterEmail: z.string(),
  status: z.enum(['open', 'dismissed', 'removed']),
  createdAt: z.string(),
})
export type Report = z.infer<typeof Report>
export const ReportList = z.array(Report)
