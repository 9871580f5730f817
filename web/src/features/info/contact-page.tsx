import { Clock, Flag, Mail } from 'lucide-react'
import { InfoPage, SupportEmail } from './info-page'

/** `/contact`: how to reach support and what to include. */
export function ContactPage() {
  return (
    <InfoPage
      title="Contact us"
      lead={<p>Real people read every message. Here is how to reach us and get an answer quickly.</p>}
    >
      <h2 className="flex items-center gap-2">
        <Mail aria-hidden="true" className="size-5 text-accent" />
        Email
      </h2>
      <p>
        Write to <SupportEmail />. It is the fastest way to reach us about an order, a payment, your account
        or a listing.
      </p>
      <p>To help us answer in one reply, please include:</p>
      <ul>
        <li>the email address of your Laptop Market account;</li>
        <li>the link to the listing, or the name of the laptop, if your question is about one;</li>
        <li>for a payment question, the date and amount (never send your card number).</li>
      </ul>

      <h2 className="flex items-center gap-2">
        <Clock aria-hidden="true" className="size-5 text-accent" />
        When we answer
      </h2>
      <p>
        We answer Monday to Friday, 9:00 to 17:00, and usually within one working day. Messages about a
        payment that went wrong are handled first.
      </p>

      <h2 className="flex items-center gap-2">
        <Flag aria-hidden="true" className="size-5 text-accent" />
        Reporting a listing
      </h2>
      <p>
        If a listing looks misleading, suspicious or breaks our terms, sign in and use the report option on
        the listing, or email us the link. Reports go straight to our moderators, who can remove the listing.
      </p>

      <h2>Sellers</h2>
      <p>
        Want the <em>Verified seller</em> badge on your listings? Email us from your seller account and we
        will explain how to confirm your identity.
      </p>
    </InfoPage>
  )
}
