import { compose, defineEmail, named } from './layout'

/**
 * The statement of reasons when an admin rejects a listing under review: what rule, what to change, and that the
 * seller may edit the listing and send it back. Essential (no topic): it decides whether the listing can be seen.
 */
export default defineEmail<{ productName: string; reason: string; url: string }>({
  topic: null,
  render: ({ productName, reason, url }, ctx) =>
    compose(
      {
        subject: `Your listing ${named(productName)} was not approved`,
        preview: 'What to change, then send it back for review.',
        heading: 'Your listing was not approved',
        paragraphs: [
          `We reviewed your listing ${named(productName)} before it goes into search, and it cannot be shown as it is.`,
          `The reason, from our reviewer: ${reason}`,
          'Listings are checked against our listing rules (an honest grade, a battery that matches it, real photos of the laptop, a serial number that is not on another listing or reported stolen). Change what the reason names and save the listing: it comes back to us for review.',
        ],
        action: { label: 'Edit the listing', url },
        footnote: 'You can reply to the reviewer through the contact page if you think this is a mistake.',
        topic: null,
      },
      ctx,
    ),
})
