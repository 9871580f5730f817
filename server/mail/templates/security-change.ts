import { compose, defineEmail, emailDate } from './layout'

/** What changed on the account; each is one email (server/lib/security-change.ts queues it with the change). */
export type SecurityChangeEmailKind =
  | 'two_step.enable'
  | 'two_step.disable'
  | 'passkey.add'
  | 'password.change'
  | 'password.reset'
  | 'payout_account.change'
  | 'sign_in.new_device'

export type SecurityChangeEmail = {
  kind: SecurityChangeEmailKind
  /** When it happened (ISO 8601, UTC). */
  at: string
  /** "Chrome on Windows": the browser that made the change. */
  device: string
  /** "Internet address 203.0.113.x": roughly where from. */
  place: string
  /** The "I did not do this" link (signed, single-use, expiring). */
  notMeUrl: string
  notMeDays: number
  passkeyName?: string | null
  previousLast4?: string | null
  newLast4?: string
  /** Payout details: when the new ones receive payouts (null: now), and the link that puts the old ones back. */
  payableFrom?: string | null
  undoUrl?: string
}

const WHAT: Record<
  SecurityChangeEmailKind,
  { subject: string; heading: string; line: (d: SecurityChangeEmail) => string }
> = {
  'two_step.enable': {
    subject: 'Two-step sign-in was turned on for your Laptop Market account',
    heading: 'Two-step sign-in was turned on',
    line: () =>
      'Two-step sign-in was turned on for your account: signing in with the password now also asks for a code from the authenticator app that was set up.',
  },
  'two_step.disable': {
    subject: 'Two-step sign-in was turned off for your Laptop Market account',
    heading: 'Two-step sign-in was turned off',
    line: () => 'Two-step sign-in was turned off for your account: the password alone now signs in.',
  },
  'passkey.add': {
    subject: 'A passkey was added to your Laptop Market account',
    heading: 'A passkey was added',
    line: (d) =>
      `A passkey${d.passkeyName ? ` named “${d.passkeyName}”` : ''} was added to your account. It signs in on its own, without the password.`,
  },
  'password.change': {
    subject: 'Your Laptop Market password was changed',
    heading: 'Your password was changed',
    line: () => 'The password of your account was changed. Every other device was signed out.',
  },
  'password.reset': {
    subject: 'Your Laptop Market password was reset',
    heading: 'Your password was reset',
    line: () =>
      'The password of your account was reset with a link sent to this address. Every device was signed out.',
  },
  'payout_account.change': {
    subject: 'Your payout bank account was changed',
    heading: 'Your payout bank account was changed',
    line: (d) =>
      d.previousLast4
        ? `The bank account your sales are paid out to was changed from the one ending ${d.previousLast4} to the one ending ${d.newLast4 ?? '????'}.`
        : `A bank account ending ${d.newLast4 ?? '????'} was set up to receive the payouts of your sales.`,
  },
  'sign_in.new_device': {
    subject: 'A new sign-in to your Laptop Market account',
    heading: 'A new device signed in',
    line: () => 'Your account was signed in to from a device we had not seen before.',
  },
}

/** Every change to how the account is entered, or where its money goes, is told to its owner at once. */
export default defineEmail<SecurityChangeEmail>({
  topic: null,
  render: (data, ctx) => {
    const what = WHAT[data.kind]
    const at = emailDate(data.at, true)
    return compose(
      {
        subject: what.subject,
        preview: what.heading,
        heading: what.heading,
        paragraphs: [
          what.line(data),
          ...(data.payableFrom
            ? [
                `For your safety, the new account receives payouts only from ${new Date(data.payableFrom).toUTCString().replace(' GMT', '')} UTC. Until then your balance waits with us; nothing is lost.`,
              ]
            : []),
          ...(data.undoUrl
            ? [
                `To put your previous payout details back, open ${data.undoUrl} (you sign in and confirm it's you first).`,
              ]
            : []),
          `When: ${at}. Device: ${data.device}. Where: ${data.place}.`,
          'If this was you, there is nothing to do.',
          `If it was not you, use the button below (it works once, for ${data.notMeDays} days): every device signed in to your account is signed out, passkeys added in the last 7 days are removed, and you choose a new password.`,
        ],
        action: { label: 'I did not do this', url: data.notMeUrl },
        footnote:
          'Laptop Market never asks for your password or codes by email or phone. This email cannot be turned off: it keeps your account safe.',
        topic: null,
      },
      ctx,
    )
  },
})
