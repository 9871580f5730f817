import { z } from 'zod'

export const Health = z.object({
  /**
   * `draining`: the instance is shutting down and finishing what it has; send new requests elsewhere. `loading`:
   * search is still reading its copy of the listings (answered with 503, like draining, until it is ready).
   */
  status: z.enum(['ok', 'degraded', 'draining', 'loading']),
  database: z.enum(['up', 'down']),
  driver: z.enum(['pglite', 'postgres']),
  uptime_s: z.number(),
  /**
   * The copy of the listings' facts this instance searches in memory (decisions 0031, 0037): the version of the
   * listings it is at (changes are applied as they commit), how many listings are on sale in it, and how long its
   * last whole read took. Null until the first read.
   */
  listing_copy: z
    .object({ version: z.string(), listings: z.number().int(), load_ms: z.number().int() })
    .nullable(),
})
export type Health = z.infer<typeof Health>
