import { compose, defineEmail } from './layout'

/** Sent when someone asks to reset the password of an account; `url` opens the reset page with its token. */
export default defineEmail<{ url: string; expiresInMinutes: number }>({
  topic: null,
  render: ({ url, expiresInMinutes }, ctx) =>
    compose(
      {
        subject: 'Reset your Laptop Market password',
        preview: 'Choose a new password for your account.',
        heading: 'Reset your password',
        paragraphs: [
          'Someone asked to reset the password of your Laptop Market account. If it was you, choose a new password with the button below.',
          `The link works once and for ${expiresInMinutes} minutes. When you set a new password, every device signed in to your account is signed out.`,
        ],
        action: { label: 'Choose a new password', url },
        footnote: 'If you did not ask for this, ignore this email: your password stays as it is.',
        topic: null,
      },
      ctx,
    ),
})
