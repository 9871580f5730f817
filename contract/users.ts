import { z } from 'zod'
import { singleLine } from './text'

/** Every role an account can hold: the one list the database, the server and the web app read. */
export const ROLES = ['buyer', 'seller', 'admin'] as const
export const Role = z.enum(ROLES)
export type Role = z.infer<typeof Role>

/** The signed-in person, as the web app sees them. */
export const Me = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: Role,
  verified: z.boolean(),
  /** Two-step sign-in is on for this account. */
  two_factor: z.boolean().optional(),
  /** The password is one the password rule now refuses: the person is asked to change it. */
  password_change_asked: z.boolean().optional(),
  /** The account buys: a buyer, or a buyer who started selling (role seller). Its isBuyer answer. */
  buys: z.boolean().optional(),
})
export type Me = z.infer<typeof Me>

/** Who is asking: the signed-in person, or null for a visitor. Asking is never an error, so a visitor's browser logs none. */
export const SessionAnswer = z.object({ user: Me.nullable() })
export type SessionAnswer = z.infer<typeof SessionAnswer>

export const AccessToken = z.object({ accessToken: z.string() })

export const EmailParams = z.strictObject({ email: z.string().trim().max(254) })
export const EmailQuery = z.strictObject({
  email: z.email({ message: 'A valid email is required' }).max(254),
})

export const IsAdmin = z.object({ isAdmin: z.boolean() })
export const IsBuyer = z.object({ isBuyer: z.boolean() })
export const IsSeller = z.object({ isSeller: z.boolean() })

/** A buyer or seller row in the admin's tables. */
export const UserRecord = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: Role,
  verified: z.boolean(),
  createdAt: z.string(),
  /** Sellers: paid sales they cancelled (each refunded to its buyer), for admins weighing their record. */
  cancelled_sales: z.number().int().optional(),
})
export type UserRecord = z.infer<typeof UserRecord>
export const UserRecordList = z.array(UserRecord)

export const UserListQuery = z.strictObject({
  q: z.string().trim().max(100).optional(),
  /** All Buyers only: just the buyers, or just the admins (both when absent). */
  role: z.enum(['buyer', 'admin'], { error: 'Choose buyer or admin' }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
})
export type UserListQuery = z.infer<typeof UserListQuery>

/** The seed's body for POST /buyers and /sellers. The role never makes anyone an admin. */
export const NewUserRecord = z.strictObject({
  name: singleLine(z.string().trim().min(1, 'Name is required').max(100), 'Name'),
  email: z.email({ message: 'Email Address is required' }).max(254),
  role: z.string().max(20).optional(),
})

export const VerifySeller = z.strictObject({ verified: z.boolean().default(true) })

export const Overview = z.object({
  role: Role,
  counts: z.array(z.object({ label: z.string(), value: z.string() })),
  /** `new` until the person signs in again after signing up ("Welcome"), then `back` ("Welcome back"). */
  greeting: z.enum(['new', 'back']),
})
export type Overview = z.infer<typeof Overview>

/** A buyer account starts selling: a phone number buyers can reach, and the seller terms accepted. */
export const StartSelling = z.strictObject({
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{6,30}$/, 'Enter a valid phone number'),
  accept_terms: z.literal(true, { message: 'Please accept the seller terms' }),
})
export type StartSelling = z.infer<typeof StartSelling>
