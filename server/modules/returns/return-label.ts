// A shipped sale's return travels on a label the seller pays for (docs/decisions/0076): bought from the carrier
// layer (server/modules/shipping) by the `returns.label` job once the return is accepted, its cost taken from the
// seller's money on the ledger, its tracker followed until the carrier delivers it back.
import type { Return } from '#contract/returns'
import type { Db } from '#server/db/client'

/** The return labels of these returns, by return id. */
export async function returnLabelOf(
  _db: Db,
  _returnIds: string[],
): Promise<Map<string, NonNullable<Return['label']>>> {
  return new Map()
}
