import { z } from 'zod'

export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['up', 'down']),
  driver: z.enum(['pglite', 'postgres']),
  uptime_s: z.number(),
})
export type Health = z.infer<typeof Health>
