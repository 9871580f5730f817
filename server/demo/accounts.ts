import type { UserRole } from '#server/db/schema'

/** The password of every demo account. Demo data is for local use only. */
export const DEMO_PASSWORD = 'demo-pass-123'

export type DemoAccount = {
  /** Stable user id, so sessions and links survive a re-seed. */
  id: string
  role: UserRole
  name: string
  email: string
  password: string
  phone: string | null
  /** Sellers: verified by an admin, shown with a badge on their listings. */
  verified: boolean
}

/** One account per role, for trying the product (the README lists them). */
export const DEMO_ACCOUNTS = [
  {
    id: 'demo-admin',
    role: 'admin',
    name: 'Avery Morgan',
    email: 'admin@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: null,
    verified: false,
  },
  {
    id: 'demo-buyer',
    role: 'buyer',
    name: 'Jordan Blake',
    email: 'buyer@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(312) 555-0187',
    verified: false,
  },
  {
    id: 'demo-seller',
    role: 'seller',
    name: 'Riley Carter',
    email: 'seller@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(512) 555-0143',
    verified: true,
  },
] as const satisfies readonly DemoAccount[]

/** More sellers who own the rest of the demo listings; they can sign in with the same password. */
export const DEMO_SELLERS = [
  {
    id: 'demo-seller-priya',
    role: 'seller',
    name: 'Priya Natarajan',
    email: 'priya.natarajan@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(206) 555-0119',
    verified: true,
  },
  {
    id: 'demo-seller-marcus',
    role: 'seller',
    name: 'Marcus Webb',
    email: 'marcus.webb@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(303) 555-0176',
    verified: true,
  },
  {
    id: 'demo-seller-elena',
    role: 'seller',
    name: 'Elena Petrova',
    email: 'elena.petrova@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(617) 555-0152',
    verified: false,
  },
  {
    id: 'demo-seller-tomas',
    role: 'seller',
    name: 'Tomás Alvarez',
    email: 'tomas.alvarez@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(619) 555-0134',
    verified: true,
  },
  {
    id: 'demo-seller-grace',
    role: 'seller',
    name: 'Grace Okafor',
    email: 'grace.okafor@laptopmarket.test',
    password: DEMO_PASSWORD,
    phone: '(404) 555-0168',
    verified: false,
  },
] as const satisfies readonly DemoAccount[]

export type DemoSellerId = (typeof DEMO_ACCOUNTS)[2]['id'] | (typeof DEMO_SELLERS)[number]['id']
