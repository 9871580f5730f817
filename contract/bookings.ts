import { z } from 'zod'

/**
 * What a buyer sends to book. The seed's client also sent productName, userName, email, price and
 * productImage; they are accepted for compatibility and ignored: the server takes them from the listing
 * and the session.
 */
export const NewBooking = z.strictObject({
  productId: z.uuid({ message: 'Choose a laptop to book' }),
  phoneNumber: z
    .string({ error: 'Phone number is required' })
    .trim()
    .min(1, 'Phone number is required')
    .max(30, 'Phone number is too long')
    .regex(/^\+?[0-9 ()-]{6,30}$/, 'Enter a valid phone number'),
  location: z
    .string({ error: 'Location is required' })
    .trim()
    .min(2, 'Location is required')
    .max(120, 'Location is too long'),
  productName: z.unknown().optional(),
  userName: z.unknown().optional(),
  email: z.unknown().optional(),
  price: z.unknown().optional(),
  productImage: z.unknown().optional(),
})
export type NewBooking = z.infer<typeof NewBooking>

/**
 * unpaid: can be paid; paid: this buyer bought it; sold: the laptop went to someone else;
 * unavailable: the listing was taken down before it was paid for.
 */
export const BookingStatus = z.enum(['unpaid', 'paid', 'sold', 'unavailable'])
export type BookingStatus = z.infer<typeof BookingStatus>

export const Booking = z.object({
  _id: z.string(),
  productId: z.string(),
  productName: z.string(),
  productImage: z.string(),
  userName: z.string(),
  email: z.string(),
  price: z.number(),
  price_cents: z.number().int(),
  phoneNumber: z.string(),
  location: z.string(),
  paid: z.boolean(),
  status: BookingStatus,
  createdAt: z.string(),
})
export type Booking = z.infer<typeof Booking>
export const BookingList = z.array(Booking)

export const BookingsQuery = z.strictObject({
  email: z.email({ message: 'A valid email is required' }).max(254),
})
