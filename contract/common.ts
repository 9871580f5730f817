import { z } from 'zod'

/** Every id we mint is a UUID; a malformed one is a 400, not a 500. */
export const Id = z.uuid({ message: 'Must be a valid id' })

export const IdParams = z.strictObject({ id: Id })
export type IdParams = z.infer<typeof IdParams>

export const Inserted = z.object({ acknowledged: z.boolean(), insertedId: z.string() })
export const Modified = z.object({ acknowledged: z.boolean(), modifiedCount: z.number().int() })
export const Deleted = z.object({ acknowledged: z.boolean(), deletedCount: z.number().int() })
