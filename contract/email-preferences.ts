import { z } from 'zod'

/**
 * The kinds of non-essential email a user may turn off, each on by default. Essential emails (password
 * reset, address verification) have no topic and always go. A new kind of email either joins a topic
 * here (with its label and description) or is essential.
 */
export const EMAIL_TOPICS = {
  deals: {
    label: 'Bookings and sales',
    description:
      'A new booking of your laptop, offers and counter-offers, payments, handovers, completed sales and disputes.',
  },
  messages: {
    label: 'Messages',
    description:
      'A message from a buyer or seller that you have not read after a few minutes, questions about your laptops and answers to yours.',
  },
  reviews: {
    label: 'Reviews',
    description: 'A reminder to review a completed sale, and reviews published about you.',
  },
  alerts: {
    label: 'Saved searches and favourites',
    description: 'New laptops that match a saved search, and price drops on laptops you saved.',
  },
  listings: {
    label: 'Your listings',
    description:
      'A listing live after review, a listing about to expire, and price tips for the laptops you sell.',
  },
} as const satisfies Record<string, { label: string; description: string }>

export const EmailTopic = z.enum(Object.keys(EMAIL_TOPICS) as [keyof typeof EMAIL_TOPICS])
export type EmailTopic = z.infer<typeof EmailTopic>

/** Which topics the user gets: every topic, true or false. */
export const EmailPreferences = z.object(
  Object.fromEntries(EmailTopic.options.map((t) => [t, z.boolean()])) as Record<EmailTopic, z.ZodBoolean>,
)
export type EmailPreferences = z.infer<typeof EmailPreferences>

/** A change: any of the topics, nothing else. */
export const EmailPreferencesUpdate = EmailPreferences.partial().strict()
export type EmailPreferencesUpdate = z.infer<typeof EmailPreferencesUpdate>

/** The signed-in user's address, whether it is confirmed, and the topics they get. */
export const EmailSettings = z.object({
  email: z.string(),
  emailVerified: z.boolean(),
  topics: EmailPreferences,
})
export type EmailSettings = z.infer<typeof EmailSettings>
