import { compose, defineEmail } from './layout'

/** Sent after sign-up (and on request) so the user confirms the address belongs to them. */
export default defineEmail<{ url: string }>({
  topic: null,
  render: ({ url }, ctx) =>
    compose(
      {
        subject: 'Confirm your email address for Laptop Market',
        preview: 'One click and your address shows as verified.',
        heading: 'Confirm your email address',
        paragraphs: [
          'Welcome to Laptop Market. Please confirm that this address is yours: buyers and sellers see a verified address as a sign they can reach you, and you need one to pay for a laptop.',
        ],
        action: { label: 'Confirm my address', url },
        footnote:
          'If you did not sign up for Laptop Market, ignore this email and no account will use this address.',
        topic: null,
      },
      ctx,
    ),
})
