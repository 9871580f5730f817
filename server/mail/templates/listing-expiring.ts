import { compose, defineEmail, emailDate, named } from './layout'

/** Sent three days before a listing expires; `url` opens My Product, where one click renews it. */
export default defineEmail<{
  productName: string
  /** When it expires (ISO 8601). */
  expiresAt?: string
  /** The day as text, from reminders queued before `expiresAt` was sent. */
  expiresOn?: string
  url: string
}>({
  topic: 'listings',
  render: ({ productName, expiresAt, expiresOn: queuedDay, url }, ctx) => {
    const expiresOn = expiresAt ? emailDate(expiresAt) : (queuedDay ?? '')
    return compose(
      {
        subject: `Your listing ${named(productName)} expires on ${expiresOn}`,
        preview: 'Renew it with one click to keep it in search and on the home page.',
        heading: 'Your listing is about to expire',
        paragraphs: [
          `Your listing ${named(productName)} has not been renewed for a while, so it expires on ${expiresOn}. After that it leaves search and the home page, and buyers can no longer book it.`,
          'Still selling it? Renew it in My Product: one click, and it stays up.',
        ],
        action: { label: 'Renew in My Product', url },
        footnote: 'Sold it elsewhere? Mark it sold in My Product instead.',
        topic: 'listings',
      },
      ctx,
    )
  },
})
