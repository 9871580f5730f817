import { OFF_PLATFORM_WARNING } from '#contract/messages'
import { compose, defineEmail, named } from './layout'

/**
 * To a buyer or seller with messages unread a few minutes after they came: one email per conversation
 * until they read it. `path` opens the conversation.
 */
export default defineEmail<{
  productName: string
  senderName: string
  count: number
  preview: string
  offPlatform: boolean
  path: string
}>({
  topic: 'messages',
  render: ({ productName, senderName, count, preview, offPlatform, path }, ctx) =>
    compose(
      {
        subject: `${senderName} sent you a message about ${named(productName)}`,
        preview: count > 1 ? `${count} unread messages` : preview.slice(0, 90),
        heading: count > 1 ? `${count} new messages about your deal` : 'A new message about your deal',
        paragraphs: [
          count > 1
            ? `${senderName} sent you ${count} messages about ${named(productName)}. The latest:`
            : `${senderName} wrote about ${named(productName)}:`,
          `“${preview}”`,
          ...(offPlatform ? [OFF_PLATFORM_WARNING] : []),
          'Answer in Laptop Market, where the conversation stays with your order.',
        ],
        action: { label: 'Open the conversation', url: `${ctx.siteUrl}${path}` },
        footnote: 'Never send money or card details by message: pay only through Laptop Market.',
        topic: 'messages',
      },
      ctx,
    ),
})
