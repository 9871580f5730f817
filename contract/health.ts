import { z } from 'zod'

export const Health = z.object({
  /** `draining`: the instance is shutting down and finishing what it has; send new requests elsewhere. */
  status: z.enum(['ok', 'degraded', 'draining']),
  database: z.enum(['up', 'down']),
  driver: z.enum(['pglite', 'postgres']),
  uptime_s: z.number(),
})
export type Health = z.infer<typeof Health>
