import { compose, defineEmail, named } from './layout'

/** An admin approved a listing that waited for review: it is live (in search, bookable). `url` opens its page. */
export default defineEmail<{ productName: string; url: string; again: boolean }>({
  topic: 'listings',
  render: ({ productName, url, again }, ctx) =>
    compose(
      {
        subject: `Your listing ${named(productName)} is live`,
        preview: 'Buyers can find it in search and book it now.',
        heading: 'Your listing is live',
        paragraphs: [
          again
            ? `We reviewed the changes to your listing ${named(productName)} and approved them. It is back in search and buyers can book it again.`
            : `We reviewed your listing ${named(productName)} and approved it. It is now in search, and buyers can book it and make offers.`,
          'People who saved a search it matches are told about it. You can see its views, offers and bookings in My Product.',
        ],
        action: { label: 'See your listing', url },
        topic: 'listings',
      },
      ctx,
    ),
})
