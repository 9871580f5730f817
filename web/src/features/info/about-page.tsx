import { CONDITION_DEFINITIONS, CONDITIONS } from '#contract/products'
import { InfoPage, SupportEmail } from './info-page'

/** `/about`: who we are, how grading works, and how we keep buying safe. */
export function AboutPage() {
  return (
    <InfoPage
      title="About Laptop Market"
      lead={<p>A marketplace for used laptops where every listing tells you exactly what you are getting.</p>}
    >
      <h2>Why we exist</h2>
      <p>
        A good laptop lasts far longer than its first owner needs it. Buying one used saves money and keeps a
        working machine out of a drawer or a landfill, but only if you can trust the listing. Laptop Market
        brings people who have a laptop to sell together with people looking for one, and sets clear rules so
        both sides know what to expect.
      </p>

      <h2>How we grade condition</h2>
      <p>
        Every listing carries one of three grades. They are defined by things you can check, not by
        adjectives, and sellers choose the grade with the definition in front of them:
      </p>
      <ul>
        {CONDITIONS.map((grade) => (
          <li key={grade}>
            <strong>{grade}</strong>: {CONDITION_DEFINITIONS[grade]}
          </li>
        ))}
      </ul>
      <p>
        Each listing also shows the processor, memory, storage and screen size, how many years the laptop has
        been in use, where it is, and who is selling it.
      </p>

      <h2>Buying safely</h2>
      <ul>
        <li>
          Book a laptop and pay for the booking through Laptop Market. The listing is marked sold the moment a
          payment is confirmed, so two people never pay for the same machine.
        </li>
        <li>
          Card details go straight to our payment provider; we never see or store your full card number.
        </li>
        <li>
          Sellers with a <em>Verified seller</em> badge have confirmed their identity with our team.
        </li>
        <li>
          If a listing looks wrong, report it. Our moderators review every report and remove listings that
          break the rules.
        </li>
      </ul>

      <h2>Selling with us</h2>
      <p>
        Create a seller account, add your laptop with honest photos and its specs, and choose the grade that
        matches. You can advertise a listing to feature it on the home page. When it sells, it leaves the
        advertised list automatically.
      </p>

      <h2>Get in touch</h2>
      <p>
        Questions, ideas or a problem with an order: write to <SupportEmail />. We usually answer within one
        working day.
      </p>
    </InfoPage>
  )
}
