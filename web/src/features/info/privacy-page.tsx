import { InfoPage, SupportEmail } from './info-page'

/** `/privacy`: what we collect, why, who sees it, and the visitor's rights. */
export function PrivacyPage() {
  return (
    <InfoPage
      title="Privacy Policy"
      updated="Nov 27, 2026"
      lead={<p>We collect only what the marketplace needs to work, and we never sell your data.</p>}
    >
      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>Account details</strong>: your name, email address and role (buyer or seller). Your password
          is stored only as a one-way hash; nobody at Laptop Market can read it. If you sign in with Google,
          we receive your name and email address from Google.
        </li>
        <li>
          <strong>Listings</strong>: the laptops you list, with their photos, description and location. Photos
          are resized, and hidden data such as GPS coordinates and camera details is removed when you upload
          them.
        </li>
        <li>
          <strong>Bookings</strong>: the phone number and location you enter when booking, so the seller can
          arrange the handover.
        </li>
        <li>
          <strong>Payments</strong>: the amount, date and the payment provider's transaction id. Card details
          are entered directly with our payment provider; we never see or store your full card number.
        </li>
        <li>
          <strong>Technical data</strong>: server logs with your IP address and the pages requested, kept for
          security and to fix problems.
        </li>
        <li>
          <strong>Security records</strong>: an audit log of sign-ins (successful and failed), password and
          two-step sign-in changes, sessions ended, payments you make and every action our admins take, each
          with the time, your IP address and browser. It never holds a password, code, token or card detail,
          and it cannot be changed or deleted, so it can be trusted when something goes wrong. You can see
          your own entries under Dashboard → Security.
        </li>
      </ul>

      <h2>Cookies</h2>
      <p>
        We use one essential cookie to keep you signed in. It cannot be read by scripts on the page. We do not
        use advertising or cross-site tracking cookies.
      </p>

      <h2>Who sees your data</h2>
      <ul>
        <li>Everyone can see a listing, including the seller's name and whether the seller is verified.</li>
        <li>When you book a laptop, its seller sees your name, email, phone number and location.</li>
        <li>Our payment provider processes card payments under its own privacy policy.</li>
        <li>Our moderators see reports and the listings and accounts they concern.</li>
      </ul>
      <p>
        We do not sell or rent personal data, and we share it with authorities only when the law requires it.
      </p>

      <h2>How long we keep it</h2>
      <p>
        Account data is kept while your account is open. When an account is closed, its listings are hidden at
        once; records of bookings and payments are kept as long as accounting and tax law requires. Server
        logs are deleted after 30 days.
      </p>

      <h2>Your rights</h2>
      <p>
        <strong>Take your data with you.</strong> Under Dashboard → Security, “Download my data (JSON)” gives
        you one file with everything we hold about you: your profile, listings, bookings, messages you wrote,
        reviews, favourites, saved searches, payouts and every security event. Only secrets (your password
        hash, sign-in tokens, your authenticator key) are left out. “Download a summary (HTML)” gives a short
        page that says, in plain words, how many records of each kind we hold and your latest security events.
      </p>
      <h3 id="your-data-export">What the data file holds</h3>
      <p>The file is JSON, indented so it reads line by line in any text editor, and made of these parts:</p>
      <ul>
        <li>
          <code>about_this_file</code>, <code>format</code> (<code>laptop-market-export/2</code>) and{' '}
          <code>exported_at</code> (when it was made, in UTC).
        </li>
        <li>
          <code>you</code>: your account as we keep it: name, email address, phone, role, when it was made,
          whether your address is confirmed and two-step sign-in is on.
        </li>
        <li>
          <code>sections</code>: one part for each kind of record, such as “Laptops you listed”, “Laptops you
          booked or bought”, “Payments you made”, “Messages you wrote”, “Reviews you wrote”, “Reviews about
          you”, “Your favourites”, “Your saved searches”, “Payouts to you”, “Money movements” and “Where you
          are signed in”. Each has a <code>title</code>, a line <code>about</code> what it holds, a{' '}
          <code>count</code> and the records themselves as <code>items</code>, with every field we keep; money
          is in cents, times in UTC. A kind of record you have none of is left out.
        </li>
        <li>
          <code>security_events</code>: every sign-in, sign-out and change to how you sign in, newest first,
          each with <code>what</code> happened in words, its <code>result</code>, the address and the browser.
        </li>
      </ul>
      <p>
        <strong>Erase your account.</strong> Under Dashboard → Security, with your password (and a code when
        two-step sign-in is on). While a sale of yours is open or money is held for you, the page says so
        before asking for anything, and we ask you to finish it first. Then, at once:
      </p>
      <ul>
        <li>Your name, email address, phone number and picture are erased; you appear as “Deleted user”.</li>
        <li>
          Your listings leave the catalogue; your favourites, saved searches and email choices are deleted.
        </li>
        <li>
          You are signed out everywhere, and after one email confirming the erasure we send you nothing more.
        </li>
        <li>
          The people you dealt with keep their conversations with you, with your name replaced and any phone
          number, email address or bank number you wrote in them removed, because they are part of their sale
          too.
        </li>
        <li>
          That last email goes to the address the account had; once it is sent, we keep the address nowhere.
        </li>
        <li>
          <strong>What we keep, and why</strong>: bookings, payments, payouts and the money ledger, under an
          anonymous id, because accounting and tax law require these records; and the security records above
          (times, IP addresses, browsers), to investigate abuse and protect other users.
        </li>
      </ul>
      <p>
        To correct your data, or for anything else, write to <SupportEmail /> from the email address of your
        account; we answer within 30 days.
      </p>

      <h2>Security</h2>
      <p>
        All traffic is encrypted, sessions end on the server when you sign out, and access to personal data
        inside our team is limited to the people who need it to help you.
      </p>

      <h2>Contact</h2>
      <p>
        Questions about privacy: <SupportEmail />.
      </p>
    </InfoPage>
  )
}
