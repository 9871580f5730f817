// Contact details written into free text: email addresses, phone numbers and bank numbers (an IBAN, a sort code,
// an account or routing number). An erased person's messages keep their words for the other side of the sale, with
// these replaced, as the privacy page says.

export const REMOVED = '[removed]'

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu
/** An IBAN: a country, two check digits and 11 to 30 letters or digits, grouped by spaces or not. */
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g
/** A UK sort code, 12-34-56. */
const SORT_CODE = /\b\d{2}-\d{2}-\d{2}\b/g
/** A run of digits with the separators phone and account numbers are written with (+, spaces, dots, dashes, brackets). */
const NUMBER_RUN = /\+?\(?\d[\d ().-]*\d/g
/** Seven digits or more make a phone, account or card number; fewer are prices, years, model numbers. */
const MIN_DIGITS = 7
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/

/** `text` with every email address, phone number and bank number in it replaced by "[removed]". */
export function maskContactDetails(text: string): string {
  return text
    .replace(EMAIL, REMOVED)
    .replace(IBAN, REMOVED)
    .replace(SORT_CODE, REMOVED)
    .replace(NUMBER_RUN, (run) => {
      const digits = run.replace(/\D/g, '').length
      return digits >= MIN_DIGITS && !ISO_DATE.test(run) ? REMOVED : run
    })
}
