import { z } from 'zod'

export const Health = z.object({
  /** `draining`: the instance is shutting down and finishing what it has; send new requests elsewhere. */
  status: z.enum(['ok', 'degraded', 'draining']),
  database: z.enum(['up', 'down']),
  driver: z.enum(['pglite', 'postgres']),
  uptime_s: z.number(),
  /**
   * The copy of the listings' facts this instance searches in memory (decision 0031): the version of the listings it
   * was read at, how many listings are on sale in it, and how long its last load took. Null until the first load.
   */
  listing_copy: z
    .object({ version: z.string(), listings: z.number().int(), load_ms: z.number().int() })
    .nullable(),
})
export type Health = z.infer<typeof Health>
