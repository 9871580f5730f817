// A local stand-in for the part of Stripe's API the server calls, so the real `stripe` SDK can be pointed
// at it (STRIPE_API_BASE). It keeps PaymentIntents and refunds in memory, honours Idempotency-Key the
// way Stripe does, and records every call so tests can assert what was asked of the provider.

import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeIntent = {
  id: string
  object: 'payment_intent'
  amount: number
  amount_received: number
  currency: string
  status: 'requires_payment_method' | 'succeeded' | 'canceled'
  client_secret: string
  description: string | null
  metadata: Record<string, string>
  automatic_payment_methods: { enabled: boolean } | null
  last_payment_error: { message: string } | null
  created: number
  livemode: false
}

export type FakeRefund = {
  id: string
  object: 'refund'
  amount: number
  currency: string
  payment_intent: string
  status: 'succeeded'
  created: number
}

export type FakeCall = {
  method: string
  path: string
  idempotencyKey: string | undefined
  /** The form-encoded body, decoded into nested objects (`metadata[bookingId]` → metadata.bookingId). */
  params: Record<string, unknown>
  status: number
}

export type FakeStripe = {
  /** `http://127.0.0.1:<port>`, for STRIPE_API_BASE. */
  url: string
  calls: FakeCall[]
  intents: Map<string, FakeIntent>
  refunds: FakeRefund[]
  /** The calls to one endpoint, e.g. callsTo('POST', '/v1/refunds'). */
  callsTo(method: string, path: string): FakeCall[]
  /** What Stripe does when the customer's card is charged: the intent succeeds for its full amount. */
  succeed(intentId: string): FakeIntent
  /** A PaymentIntent created straight at the provider, as someone holding the secret key could. */
  createIntent(params: { amount: number; currency?: string; metadata?: Record<string, string> }): FakeIntent
  /** The next `count` calls to this endpoint are answered with this Stripe error. */
  failNext(path: string, status: number, message: string, count?: number): void
  /** A webhook event wrapping an object, shaped as Stripe sends it. */
  event(type: string, object: unknown): { id: string; payload: string }
  reset(): void
  close(): Promise<void>
}

function stripeId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`
}

/** Stripe's form encoding: `a[b][c]=v` becomes { a: { b: { c: 'v' } } }. */
function decodeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '')
    let node = root
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] = value
        return
      }
      const next = node[part]
      if (typeof next !== 'object' || next === null) node[part] = {}
      node = node[part] as Record<string, unknown>
    })
  }
  return root
}

function stripeError(status: number, message: string, code?: string, type = 'invalid_request_error') {
  return { status, body: { error: { type, message, ...(code ? { code } : {}) } } }
}

type Answer = { status: number; body: unknown }

export async function startFakeStripe(): Promise<FakeStripe> {
  const calls: FakeCall[] = []
  const intents = new Map<string, FakeIntent>()
  const refunds: FakeRefund[] = []
  /** Stripe replays the first answer to a repeated key, and refuses the key with other parameters. */
  const idempotent = new Map<string, { path: string; rawBody: string; answer: Answer }>()
  const failures = new Map<string, { status: number; message: string; left: number }>()
  const now = () => Math.floor(Date.now() / 1000)

  function createIntent(params: Record<string, unknown>): Answer {
    const amount = Number(params.amount)
    if (!Number.isInteger(amount) || amount < 50) {
      return stripeError(400, 'Amount must be at least $0.50 usd', 'amount_too_small')
    }
    const id = stripeId('pi')
    const apm = params.automatic_payment_methods as { enabled?: string } | undefined
    const intent: FakeIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: String(params.currency ?? 'usd'),
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      description: typeof params.description === 'string' ? params.description : null,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      automatic_payment_methods: apm ? { enabled: apm.enabled === 'true' } : null,
      last_payment_error: null,
      created: now(),
      livemode: false,
    }
    intents.set(id, intent)
    return { status: 200, body: intent }
  }

  function createRefund(params: Record<string, unknown>): Answer {
    const intentId = String(params.payment_intent ?? '')
    const intent = intents.get(intentId)
    if (!intent) return stripeError(404, `No such payment_intent: '${intentId}'`, 'resource_missing')
    if (intent.status !== 'succeeded') {
      return stripeError(400, `PaymentIntent ${intentId} has not succeeded`, 'charge_not_refundable')
    }
    const refunded = refunds.filter((r) => r.payment_intent === intentId).reduce((s, r) => s + r.amount, 0)
    const amount = params.amount === undefined ? intent.amount_received - refunded : Number(params.amount)
    if (amount <= 0 || refunded + amount > intent.amount_received) {
      return stripeError(400, `Charge for ${intentId} has already been refunded.`, 'charge_already_refunded')
    }
    const refund: FakeRefund = {
      id: stripeId('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intentId,
      status: 'succeeded',
      created: now(),
    }
    refunds.push(refund)
    return { status: 200, body: refund }
  }

  function route(method: string, path: string, params: Record<string, unknown>): Answer {
    if (method === 'POST' && path === '/v1/payment_intents') return createIntent(params)
    if (method === 'POST' && path === '/v1/refunds') return createRefund(params)
    const match = /^\/v1\/payment_intents\/([A-Za-z0-9_]+)$/.exec(path)
    if (method === 'GET' && match?.[1]) {
      const intent = intents.get(match[1])
      return intent
        ? { status: 200, body: intent }
        : stripeError(404, `No such payment_intent: '${match[1]}'`, 'resource_missing')
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path})`)
  }

  function answer(method: string, path: string, rawBody: string, key: string | undefined): Answer {
    const failure = failures.get(path)
    if (failure && failure.left > 0) {
      failure.left -= 1
      return stripeError(failure.status, failure.message)
    }
    if (method === 'POST' && key) {
      const earlier = idempotent.get(key)
      if (earlier) {
        if (earlier.path !== path || earlier.rawBody !== rawBody) {
          return stripeError(
            400,
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            undefined,
            'idempotency_error',
          )
        }
        return earlier.answer
      }
      const fresh = route(method, path, decodeForm(rawBody))
      // Stripe does not keep answers to requests that failed before doing anything (4xx validation).
      if (fresh.status < 400) idempotent.set(key, { path, rawBody, answer: fresh })
      return fresh
    }
    return route(method, path, decodeForm(rawBody))
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8')
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const method = req.method ?? 'GET'
      const keyHeader = req.headers['idempotency-key']
      const key = typeof keyHeader === 'string' ? keyHeader : undefined
      let result: Answer
      if (!/^Bearer sk_/.test(req.headers.authorization ?? '')) {
        result = stripeError(401, 'Invalid API Key provided')
      } else {
        result = answer(method, url.pathname, rawBody, key)
      }
      calls.push({
        method,
        path: url.pathname,
        idempotencyKey: key,
        params: decodeForm(rawBody),
        status: result.status,
      })
      res.writeHead(result.status, {
        'content-type': 'application/json',
        'request-id': stripeId('req'),
        ...(key ? { 'idempotency-key': key } : {}),
      })
      res.end(JSON.stringify(result.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    intents,
    refunds,
    callsTo: (method, path) => calls.filter((c) => c.method === method && c.path === path),
    succeed(intentId) {
      const intent = intents.get(intentId)
      if (!intent) throw new Error(`fake Stripe: no intent ${intentId}`)
      intent.status = 'succeeded'
      intent.amount_received = intent.amount
      return structuredClone(intent)
    },
    createIntent(params) {
      const created = createIntent({ currency: 'usd', ...params })
      if (created.status !== 200) throw new Error(`fake Stripe: ${JSON.stringify(created.body)}`)
      return created.body as FakeIntent
    },
    failNext(path, status, message, count = 1) {
      failures.set(path, { status, message, left: count })
    },
    event(type, object) {
      const id = stripeId('evt')
      const payload = JSON.stringify({
        id,
        object: 'event',
        api_version: '2026-10-28.endive',
        created: now(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      })
      return { id, payload }
    },
    reset() {
      calls.length = 0
      refunds.length = 0
      intents.clear()
      idempotent.clear()
      failures.clear()
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())))
    },
  }
}
