import { InfoPage, SupportEmail } from './info-page'

/** `/terms`: the rules for buyers and sellers. */
export function TermsPage() {
  return (
    <InfoPage
      title="Terms of Service"
      updated="Nov 2, 2026"
      lead={
        <p>
          The rules that keep Laptop Market fair for buyers and sellers. Please read them before you use it.
        </p>
      }
    >
      <h2>1. Who we are and what we do</h2>
      <p>
        Laptop Market is an online marketplace where people sell and buy used laptops. We provide the website,
        the booking and payment process, and moderation. We are not the seller of the laptops listed: each
        listing is an offer from the seller named on it.
      </p>

      <h2>2. Your account</h2>
      <ul>
        <li>You must be at least 18 years old, or have a parent or guardian's permission, to buy or sell.</li>
        <li>Give your real name and an email address you can read. Keep your password to yourself.</li>
        <li>
          You are responsible for what happens in your account. Tell us at once if you think someone else used
          it.
        </li>
        <li>One person, one account per role. Accounts made to get around a suspension will be closed.</li>
      </ul>

      <h2>3. Listing a laptop</h2>
      <p>When you list a laptop, you promise that:</p>
      <ul>
        <li>it is yours to sell, it is not stolen, and it is not locked to another person's account;</li>
        <li>
          the photos show the actual laptop, and the condition grade, specifications and years of use are
          accurate;
        </li>
        <li>every flaw you know of is named in the description, especially for laptops graded Fair;</li>
        <li>you will remove your personal data from the laptop before handing it over.</li>
      </ul>
      <p>
        Advertising a listing features it on the home page until it sells. You may edit or delete a listing
        until it has been paid for.
      </p>

      <h2>4. Booking and paying</h2>
      <ul>
        <li>
          Booking a laptop tells the seller you want it. The price you pay is always the price shown on the
          listing, calculated by us, not by your browser.
        </li>
        <li>
          A laptop is sold to the first buyer whose payment is confirmed. If someone else pays first, you will
          not be charged for it.
        </li>
        <li>Payments are processed by our payment provider. We never see or store your full card number.</li>
        <li>
          Arrange the handover with the seller. Check the laptop against the listing when you receive it, and
          contact us within 7 days if it does not match.
        </li>
      </ul>

      <h2>5. What is not allowed</h2>
      <ul>
        <li>
          Stolen, counterfeit or remotely locked devices, and laptops you do not have in your possession.
        </li>
        <li>Misleading photos, grades or prices, and listings for anything other than a laptop.</li>
        <li>Asking buyers to pay outside Laptop Market, or collecting their data for other purposes.</li>
        <li>Harassment, spam, or any attempt to interfere with the site or other people's accounts.</li>
      </ul>

      <h2>6. Reports and moderation</h2>
      <p>
        Anyone signed in can report a listing. Our moderators review reports and may remove a listing,
        withdraw a Verified seller badge, or disable an account that breaks these terms. Bookings and payments
        already made are kept for the record.
      </p>

      <h2>7. Our responsibility</h2>
      <p>
        We work hard to keep the site available and listings honest, but we cannot inspect every laptop. To
        the extent the law allows, we are not liable for the condition of a laptop beyond what the seller
        described, or for losses caused by events outside our control. Nothing in these terms limits rights
        you have under consumer law.
      </p>

      <h2>8. Changes</h2>
      <p>
        We may update these terms. When the change matters, we will tell you by email or on the site before it
        takes effect. The date at the top shows the latest version.
      </p>

      <h2>9. Contact</h2>
      <p>
        Questions about these terms: <SupportEmail />.
      </p>
    </InfoPage>
  )
}
