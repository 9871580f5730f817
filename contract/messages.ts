import { z } from 'zod'

export const MESSAGE_MAX = 2000

// Control characters other than tab and line breaks (NUL, escapes, DEL) are refused: messages are shown as text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point of the check
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/** What the buyer or the seller writes in a booking's conversation. */
export const NewMessage = z.strictObject({
  body: z
    .string({ error: 'Write a message' })
    .trim()
    .min(1, 'Write a message')
    .max(MESSAGE_MAX, `Keep the message under ${MESSAGE_MAX} characters`)
    .refine((t) => !CONTROL_CHARACTERS.test(t), 'The message cannot contain control characters'),
})
export type NewMessage = z.infer<typeof NewMessage>

/** One message as its reader sees it. */
export const Message = z.object({
  _id: z.string(),
  bookingId: z.string(),
  senderId: z.string(),
  senderName: z.string(),
  /** Whether the caller wrote it. */
  mine: z.boolean(),
  body: z.string(),
  /** It asks to pay outside the marketplace: the reader is warned that such payments are not protected. */
  offPlatform: z.boolean(),
  /** Someone reported it to the admins. */
  reported: z.boolean(),
  createdAt: z.string(),
})
export type Message = z.infer<typeof Message>
/** A booking's conversation, oldest first. */
export const MessageList = z.array(Message)

/** Messages the signed-in user has not read: in all, and per booking (only bookings with some). */
export const UnreadCount = z.object({
  count: z.number().int(),
  bookings: z.record(z.string(), z.number().int()),
})
export type UnreadCount = z.infer<typeof UnreadCount>

/** The warning shown beside a message that asks to pay outside the marketplace. */
export const OFF_PLATFORM_WARNING =
  'This message asks to pay outside Laptop Market. Payments outside Laptop Market are not protected, so keep every payment on Laptop Market.'

// Ways people ask to be paid where the marketplace cannot protect the buyer. Matched on words, so that
// "transferable warranty" or "giftcard holder" do not trip it but "wire transfer" and "gift card" do.
const OFF_PLATFORM_PATTERNS = [
  /\b(wire|bank|direct|money|swift|sepa)[\s-]*transfers?\b/,
  /\bwire\s+(me|the\s+money|it)\b/,
  /\bgift[\s-]*cards?\b/,
  /\b(itunes|steam|amazon|google\s+play)\s+cards?\b/,
  /\b(crypto|cryptocurrency|bitcoins?|btc|ethereum|eth|usdt|tether|litecoin)\b/,
  /\bwestern\s+union\b/,
  /\bmoney\s*gram\b/,
  /\b(zelle|venmo|cash\s*app|revolut|wise\.com)\b/,
  /\bpay(ing)?\s+(me\s+)?(directly|direct|outside|off[\s-]*(the\s+)?(site|platform|app))\b/,
  /\b(outside|off)\s+(of\s+)?(the\s+)?(site|platform|app|laptop\s+market|marketplace)\b/,
  /\bfriends\s*(and|&|n)\s*family\b/,
  /\bpaypal\s*(f\s*&\s*f|ff|gift)\b/,
  /\biban\b/,
  /\b(routing|account)\s+number\b/,
]

/** True when the text asks to pay outside the marketplace (wire transfer, gift cards, crypto, "pay me directly"…). */
export function looksOffPlatform(text: string): boolean {
  const t = text.toLowerCase()
  return OFF_PLATFORM_PATTERNS.some((p) => p.test(t))
}

/** Admin: a reported message, with its booking to open the conversation. */
export const ReportedMessage = z.object({
  _id: z.string(),
  bookingId: z.string(),
  productName: z.string(),
  senderName: z.string(),
  body: z.string(),
  offPlatform: z.boolean(),
  reportedAt: z.string(),
  createdAt: z.string(),
})
export type ReportedMessage = z.infer<typeof ReportedMessage>
export const ReportedMessageList = z.array(ReportedMessage)

/** One of the signed-in user's conversations, newest message first in the list. */
export const Conversation = z.object({
  bookingId: z.string(),
  productId: z.string(),
  productName: z.string(),
  productImage: z.string(),
  /** The other side: the seller for the buyer, the buyer for the seller. */
  otherName: z.string(),
  /** Whether the caller is the booking's buyer (else the listing's seller). */
  asBuyer: z.boolean(),
  lastMessageAt: z.string(),
  unread: z.number().int(),
})
export type Conversation = z.infer<typeof Conversation>
export const ConversationList = z.array(Conversation)
