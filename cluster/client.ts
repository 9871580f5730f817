// A small HTTP client for the cluster test and the benchmarks: JSON in and out, a session cookie kept per
// account, and the Origin the app expects (its PUBLIC_URL, which is the balancer).
export type Answer = { status: number; body: unknown; headers: Headers }

export type Account = { cookie: string; id: string; email: string; password: string }

export async function call(
  base: string,
  method: string,
  url: string,
  opts: {
    cookie?: string
    body?: unknown
    origin?: string
    raw?: BodyInit
    headers?: Record<string, string>
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers }
  if (opts.cookie) headers.cookie = opts.cookie
  if (opts.origin) headers.origin = opts.origin
  let body: BodyInit | undefined = opts.raw
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(opts.body)
  }
  const res = await fetch(`${base}${url}`, { method, headers, body })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {}
  return { status: res.status, body: parsed, headers: res.headers }
}

export function sessionCookie(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c): c is string => Boolean(c) && !c?.endsWith('='))
    .join('; ')
}

export async function signUp(
  base: string,
  origin: string,
  role: 'buyer' | 'seller',
  label: string = role,
): Promise<Account> {
  const email = `${label}-${Math.random().toString(36).slice(2, 10)}@cluster.test`
  const password = 'cluster-pass-42'
  const res = await call(base, 'POST', '/api/auth/sign-up/email', {
    origin,
    body: { name: `Cluster ${label}`, email, password, role },
  })
  if (res.status !== 200) throw new Error(`sign-up of ${email}: ${res.status} ${JSON.stringify(res.body)}`)
  const { user } = res.body as { user: { id: string } }
  return { cookie: sessionCookie(res.headers), id: user.id, email, password }
}

export async function signIn(
  base: string,
  origin: string,
  email: string,
  password: string,
): Promise<Account> {
  const res = await call(base, 'POST', '/api/auth/sign-in/email', { origin, body: { email, password } })
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status} ${JSON.stringify(res.body)}`)
  const { user } = res.body as { user: { id: string } }
  return { cookie: sessionCookie(res.headers), id: user.id, email, password }
}

export const LISTING = {
  seller_phone: '(512) 555-0142',
  resale_price: 649.5,
  original_price: 1299,
  description: 'Fully working, light marks on the lid, battery at 88% of design capacity.',
  condition: 'Excellent',
  location: 'Austin, TX',
  uses: 2,
  processor: 'Intel Core i7-1185G7',
  ram_gb: 16,
  storage_gb: 512,
  screen_inches: 13.4,
  img: '/images/laptop-placeholder.svg',
}

export const CARD = { number: '4242 4242 4242 4242', expiry: '12 / 39', cvc: '123' }
