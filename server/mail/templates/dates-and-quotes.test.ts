import { describe, expect, it } from 'vitest'
import { TEMPLATES as templates } from './index'

// Every email reads dates as people write them and puts names in one style of quotes: no "Mon, 30 Nov 2026
// 07:14:17 GMT", no ISO times, no straight double quotes beside curly ones.

const ctx = { name: 'Avery', siteUrl: 'https://shop.example' }
const AT = '2026-11-30T07:14:17.000Z'

/** Sample data for each template: every field a string, a number or a date as the callers send them. */
function sample(): Record<string, unknown> {
  return new Proxy(
    {},
    {
      get: (_, key) => {
        if (typeof key !== 'string') return undefined
        if (/At$|On$|Until$|^payBy$|Date$/.test(key)) return AT
        if (/Cents$|^total$|^count$|^rounds|Left$|Days$/i.test(key)) return 72000
        if (/url$/i.test(key)) return 'https://shop.example/x'
        if (/^(items|listings|matches|favourites|searches|sections|bookings|laptops)$/.test(key)) return []
        if (/^(sold|isBuyer|refunded|removed|approved)$/.test(key)) return false
        if (key === 'role') return 'buyer'
        return 'Surface Laptop 4 15"'
      },
      has: () => true,
    },
  )
}

describe('emails', () => {
  it('show dates for people, in UTC and saying so, and quote names one way', () => {
    const rendered: string[] = []
    for (const [name, template] of Object.entries(templates)) {
      let out: { subject: string; text: string }
      try {
        out = template.render(sample() as never, ctx)
      } catch {
        continue // a template whose data this sample cannot fake is covered by its own tests
      }
      rendered.push(name)
      for (const part of [out.subject, out.text]) {
        expect(part, name).not.toMatch(/GMT|\d{4}-\d{2}-\d{2}T/)
        // A straight double quote only as the inch mark in the sample name, never as a quote around text.
        expect(part.replaceAll('15"', ''), `${name}: ${part}`).not.toContain('"')
      }
    }
    expect(rendered).toEqual(expect.arrayContaining(['offer-received', 'offer-accepted', 'offer-expiring']))
  })

  it('write a time as "Monday, November 30, 2026 at 7:14 AM UTC"', () => {
    const out = templates['offer-expiring'].render(sample() as never, ctx)
    expect(out.text).toContain('Monday, November 30, 2026 at 7:14 AM UTC')
    expect(out.subject).toContain('“Surface Laptop 4 15"”')
  })
})
