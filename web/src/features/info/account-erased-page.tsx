import { Link } from 'react-router'
import { paths } from '#contract/pages'
import { InfoPage } from './info-page'

/** `/account-erased`: what a person sees right after erasing their account (they are signed out by then). */
export function AccountErasedPage() {
  return (
    <InfoPage
      title="Your account is erased"
      lead={<p>You are signed out everywhere. We sent one last email to the address the account had.</p>}
    >
      <h2>What is gone</h2>
      <ul>
        <li>
          Your name, email address, phone number and picture: where you appear, you are now “Deleted user”.
        </li>
        <li>Your listings, favourites, saved searches, email choices, passkeys and sign-in methods.</li>
        <li>
          Phone numbers, email addresses and bank numbers in the messages you wrote. The rest of each
          conversation stays with the person you dealt with, because it is part of their sale too.
        </li>
      </ul>
      <h2>What we keep, and why</h2>
      <p>
        Bookings, payments, payouts and the money ledger stay under an anonymous id, because accounting and
        tax law require these records. Security records (times, IP addresses, browsers) are kept to
        investigate abuse. <Link to="/privacy">Our privacy page</Link> says more.
      </p>
      <p>
        Thank you for using Laptop Market. You are welcome back at any time:{' '}
        <Link to={paths.signup()}>make a new account</Link> or <Link to={paths.home()}>keep browsing</Link>.
      </p>
    </InfoPage>
  )
}
