// The cluster journey against a running stack that something else started (scripts/compose-test.sh: the compose
// file's two instances, nginx, PostgreSQL and Redis): sign-ups, a session shared by both instances and the
// balancer, a laptop listed through one instance and found by search on both and through nginx, a booking, its
// hold and a test-card payment through different instances, the sold laptop leaving search everywhere.
//   JOURNEY_A, JOURNEY_B: the two instances; JOURNEY_LB: nginx (the instances' PUBLIC_URL); JOURNEY_DATABASE_URL:
//   their PostgreSQL (a brand to list under, and the addresses confirmed as the emailed link would).
// Prints one line per step; exits 1 at the first that fails.
import pg from 'pg'
import { type Account, CARD, call, LISTING, signIn, signUp } from './client'

const need = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is required`)
  return value
}
const A = need('JOURNEY_A')
const B = need('JOURNEY_B')
const LB = need('JOURNEY_LB')

function check(ok: boolean, what: string, detail?: unknown): void {
  if (!ok) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`)
}
function passed(what: string): void {
  console.log(`  ok  ${what}`)
}
async function within(ms: number, test: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + ms
  do {
    if (await test()) return true
    await new Promise((r) => setTimeout(r, 200))
  } while (Date.now() < until)
  return false
}

async function main(): Promise<void> {
  const db = new pg.Client({ connectionString: need('JOURNEY_DATABASE_URL') })
  await db.connect()
  try {
    const brand = await db.query<{ id: string }>(
      `insert into brands (name, image_url) values ('Compose Brand ${Date.now()}', 'https://images.example.com/brand.png') returning id`,
    )
    const brandId = brand.rows[0]?.id ?? ''
    const confirm = async (account: Account) => {
      await db.query('update users set email_verified = true where id = $1', [account.id])
      return account
    }

    const seller = await confirm(await signUp(LB, LB, 'seller'))
    const buyer = await confirm(await signUp(A, LB, 'buyer'))
    passed(`a seller signed up through nginx, a buyer through instance A (${buyer.email})`)

    for (const base of [A, B, LB, LB, LB]) {
      const res = await call(base, 'GET', '/api/auth/get-session', { cookie: buyer.cookie })
      check(
        res.status === 200 && (res.body as { user?: { email?: string } })?.user?.email === buyer.email,
        `the buyer's session on ${base}`,
        res.body,
      )
    }
    const again = await signIn(B, LB, buyer.email, buyer.password)
    const onA = await call(A, 'GET', '/api/auth/get-session', { cookie: again.cookie })
    check(
      (onA.body as { user?: { email?: string } })?.user?.email === buyer.email,
      'a sign-in on B, on A',
      onA.body,
    )
    passed('one session on A, B and nginx; a sign-in through B is known to A')

    const listed = await call(B, 'POST', '/api/products', {
      cookie: seller.cookie,
      origin: LB,
      body: { ...LISTING, name: 'Compose Journey Laptop', category_id: brandId },
    })
    check(listed.status === 201, 'listing a laptop through B', listed.body)
    const id = (listed.body as { insertedId: string }).insertedId
    passed(`the seller listed a laptop through B (${id})`)

    const found = async (base: string) =>
      (
        (await call(base, 'GET', `/api/search?brand=${brandId}&sort=newest&page_size=50`)).body as {
          items?: { _id: string }[]
        }
      ).items?.some((p) => p._id === id) ?? false
    for (const base of [A, B, LB]) {
      check(await within(5000, () => found(base)), `search on ${base} does not find the laptop within 5 s`)
    }
    const detail = await call(LB, 'GET', `/api/products/${id}`)
    check(detail.status === 200, 'the listing through nginx', detail.status)
    passed('search finds it on A, on B and through nginx; its page answers through nginx')

    const booked = await call(A, 'POST', '/api/bookings', {
      cookie: buyer.cookie,
      origin: LB,
      body: { productId: id, phoneNumber: '(512) 555-0100', location: 'Austin, TX' },
    })
    check(booked.status === 201, 'booking through A', booked.body)
    const bookingId = (booked.body as { insertedId: string }).insertedId
    const hold = await call(B, 'POST', `/api/bookings/${bookingId}/hold`, {
      cookie: buyer.cookie,
      origin: LB,
    })
    check(hold.status === 200, 'the hold through B', hold.body)
    const paid = await call(LB, 'POST', '/api/payments/test', {
      cookie: buyer.cookie,
      origin: LB,
      body: { bookingId, card: CARD },
    })
    check(
      paid.status === 200 && (paid.body as { status?: string }).status === 'succeeded',
      'paying',
      paid.body,
    )
    const sales = await db.query<{ n: number }>(
      `select count(*)::int as n from payments where product_id = $1 and status = 'succeeded'`,
      [id],
    )
    check(sales.rows[0]?.n === 1, 'one succeeded payment in PostgreSQL', sales.rows)
    passed(`booked through A, held through B, paid through nginx (${JSON.stringify(paid.body)})`)

    for (const base of [A, B, LB]) {
      check(
        await within(5000, async () => !(await found(base))),
        `the sold laptop still in search on ${base}`,
      )
    }
    passed('the sold laptop left search on A, on B and through nginx')
  } finally {
    await db.end()
  }
}

main().catch((err) => {
  console.error(`compose journey FAILED: ${err instanceof Error ? err.message : String(err)}`)
  process.exit(1)
})
