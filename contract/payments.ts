import { z } from 'zod'

export const PaymentMode = z.enum(['stripe', 'test'])

export const PaymentConfig = z.object({
  mode: PaymentMode,
  /** Stripe's publishable key when mode is stripe. */
  publishableKey: z.string().optional(),
  /** The marketplace's fee on a sale, from the seller's share (feeCents in contract/fees.ts). */
  fee: z.object({ basis_points: z.number().int(), min_cents: z.number().int() }),
})
export type PaymentConfig = z.infer<typeof PaymentConfig>

export const BookingRef = z.strictObject({ bookingId: z.uuid({ message: 'Must be a valid id' }) })

export const PaymentIntentAnswer = z.object({
  clientSecret: z.string(),
  amount_cents: z.number().int(),
})

function luhn(digits: string): boolean {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** The built-in test processor's card form, checked the way a card form is. */
export const TestCard = z
  .strictObject({
    number: z
      .string({ error: 'Card number is required' })
      .transform((v) => v.replace(/[\s-]/g, ''))
      .pipe(
        z
          .string()
          .regex(/^[0-9]{12,19}$/, 'Your card number is incomplete')
          .refine(luhn, 'Your card number is invalid'),
      ),
    expiry: z
      .string({ error: 'Expiry date is required' })
      .trim()
      .regex(/^(0[1-9]|1[0-2]) ?\/ ?([0-9]{2})$/, 'Enter the expiry as MM / YY'),
    cvc: z
      .string({ error: 'CVC is required' })
      .trim()
      .regex(/^[0-9]{3,4}$/, 'Your card’s security code is incomplete'),
  })
  .superRefine((card, ctx) => {
    const m = /^(\d{2}) ?\/ ?(\d{2})$/.exec(card.expiry)
    if (!m) return
    const month = Number(m[1])
    const year = 2000 + Number(m[2])
    const now = new Date()
    const expired =
      year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)
    if (expired)
      ctx.addIssue({
        code: 'custom',
        path: ['expiry'],
        message: 'Your card’s expiration date is in the past',
      })
  })
export type TestCard = z.input<typeof TestCard>

export const TestPayment = z.strictObject({
  bookingId: z.uuid({ message: 'Must be a valid id' }),
  card: TestCard,
})

export const PaymentResult = z.object({
  status: z.enum(['succeeded']),
  transactionId: z.string(),
  amount_cents: z.number().int(),
})
