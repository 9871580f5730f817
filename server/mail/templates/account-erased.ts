import { compose, defineEmail } from './layout'

/**
 * The one email after a person erases their account, to the address the account had. It carries no name: the job
 * holds the bare address only, and forgets it once the email is sent (`forgetsAddress`).
 */
export default defineEmail<Record<string, never>>({
  topic: null,
  forgetsAddress: true,
  render: (_data, ctx) =>
    compose(
      {
        subject: 'Your Laptop Market account is erased',
        preview: 'This is the last email we send to this address.',
        heading: 'Your account is erased',
        paragraphs: [
          'As you asked, your Laptop Market account is erased. Your name, email address, phone number and picture are gone, your listings have left the catalogue, and you are signed out everywhere.',
          'The people you dealt with keep their conversations with you, with your name replaced and any phone number, email address or bank number you wrote in them removed.',
          'What the law makes us keep (bookings, payments, payouts and the money ledger) stays under an anonymous id, with no name or address attached.',
          'This is the last email we send to this address. You are welcome to sign up again at any time.',
        ],
        action: { label: 'What we keep and why', url: `${ctx.siteUrl}/privacy` },
        footnote: `If you did not erase your account, tell us at once through ${ctx.siteUrl}/contact: someone may have had your password.`,
        topic: null,
      },
      ctx,
    ),
})
