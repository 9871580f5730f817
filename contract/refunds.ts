import { z } from 'zod'

// An admin's refund of a paid sale (a dispute's, or a completed sale's): the reason is asked for and shown to both
// sides, on the deal and in their emails. A refund gives money back only: the laptop's way back, if any, is for
// the two of them to agree (a return flow of its own would track it).

export const AdminRefundBody = z.strictObject({
  reason: z
    .string({ error: 'Say why the buyer is refunded: both sides see it' })
    .trim()
    .min(10, 'Say why the buyer is refunded in at least 10 characters: both sides see it')
    .max(500, 'Keep the reason under 500 characters'),
})
export type AdminRefundBody = z.infer<typeof AdminRefundBody>

/**
 * What happens to the laptop after a refund, in plain words for one side: whether the buyer has it (it was handed
 * over) decides. The refund does not include a return, and Laptop Market does not collect the laptop.
 */
export function refundLaptopWords(role: 'buyer' | 'seller', handedOver: boolean): string {
  if (!handedOver) {
    return role === 'buyer'
      ? 'The laptop was never handed over to you, so there is nothing to send back.'
      : 'The laptop was never handed over, so it stays with you. Its listing stays off the market: list it again if you want to sell it.'
  }
  return role === 'buyer'
    ? 'This refund does not include a return of the laptop: Laptop Market does not collect it. Keep it safe and answer the seller in Messages: if they ask for it back, agree with them how it goes back to them.'
    : 'This refund does not include a return of the laptop: the buyer still has it and Laptop Market does not collect it. If you want it back, ask the buyer in Messages and agree how it goes back. Once it is back with you, list it again with a description of its state now.'
}
