// A conversation for the demo accounts (server/modules/messages): the demo buyer and the demo seller arrange
// the handover of the seed's paid MacBook. The buyer's second message asks about paying outside the
// marketplace, so the demo seller sees the warning; the seller's last answer is unread by the buyer, so the
// demo buyer's navbar shows an unread message. Dates count from the payment, so every seed is the same.

import { looksOffPlatform } from '#contract/messages'
import type { Db } from '#server/db/client'
import { messageReads, messages } from '#server/db/schema'
import { stableUuid } from './ids'

const MINUTE = 60 * 1000

const CONVERSATION: readonly { key: string; from: 'buyer' | 'seller'; minutesAfter: number; body: string }[] =
  [
    {
      key: 'ask-handover',
      from: 'buyer',
      minutesAfter: 35,
      body: "Hi! I just paid for the MacBook Pro. When could we meet for the handover? I'm in Chicago, near the Loop.",
    },
    {
      key: 'answer-handover',
      from: 'seller',
      minutesAfter: 80,
      body: "Thanks Jordan! Tomorrow after 6 pm at Union Station works for me. I'll bring the charger and the original box.",
    },
    {
      key: 'ask-outside',
      from: 'buyer',
      minutesAfter: 95,
      body: 'Perfect. A friend of mine wants a second one: could he pay you directly by bank transfer to skip the fees?',
    },
    {
      key: 'answer-outside',
      from: 'seller',
      minutesAfter: 130,
      body: 'I only sell through Laptop Market, sorry: payments here are protected for both of us. He can book one of my other listings. See you tomorrow!',
    },
  ]

/** Writes the conversation on the booking `bookingId` (paid at `paidAt`); returns how many messages. */
export async function seedDemoMessages(
  tx: Db,
  input: { bookingId: string; buyerId: string; sellerId: string; paidAt: Date },
): Promise<number> {
  const at = (minutes: number) => new Date(input.paidAt.getTime() + minutes * MINUTE)
  await tx.insert(messages).values(
    CONVERSATION.map((m) => ({
      id: stableUuid(`message:${m.key}`),
      bookingId: input.bookingId,
      senderId: m.from === 'buyer' ? input.buyerId : input.sellerId,
      body: m.body,
      offPlatform: looksOffPlatform(m.body),
      createdAt: at(m.minutesAfter),
    })),
  )
  // Each side read up to their own last message: the seller's last answer is new to the buyer.
  const lastFrom = (who: 'buyer' | 'seller') =>
    at(Math.max(...CONVERSATION.filter((m) => m.from === who).map((m) => m.minutesAfter)))
  await tx.insert(messageReads).values([
    { bookingId: input.bookingId, userId: input.buyerId, lastReadAt: lastFrom('buyer') },
    { bookingId: input.bookingId, userId: input.sellerId, lastReadAt: lastFrom('seller') },
  ])
  return CONVERSATION.length
}
