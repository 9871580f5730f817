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
  /** The charge made when the intent succeeded: what a transfer's `source_transaction` names. */
  latest_charge: string | null
  created: number
  livemode: false
}

/** A Stripe Connect account (Express): `payouts_enabled` once the seller finished Stripe's onboarding. */
export type FakeAccount = {
  id: string
  object: 'account'
  type: 'express'
  country: string
  email: string | null
  default_currency: string
  charges_enabled: boolean
  payouts_enabled: boolean
  details_submitted: boolean
  capabilities: { transfers: 'active' | 'inactive' | 'pending' }
  requirements: { currently_due: string[]; disabled_reason: string | null }
  metadata: Record<string, string>
  created: number
}

export type FakeTransfer = {
  id: string
  object: 'transfer'
  amount: number
  amount_reversed: number
  balance_transaction: string
  created: number
  currency: string
  destination: string
  destination_payment: string
  metadata: Record<string, string>
  reversals: { object: 'list'; data: FakeReversal[]; has_more: false; total_count: number; url: string }
  reversed: boolean
  source_transaction: string | null
  source_type: 'card'
  transfer_group: string | null
}

export type FakeReversal = {
  id: string
  object: 'transfer_reversal'
  amount: number
  balance_transaction: string
  created: number
  currency: string
  metadata: Record<string, string>
  transfer: string
}

export type FakePayout = {
  id: string
  object: 'payout'
  amount: number
  arrival_date: number
  automatic: false
  balance_transaction: string
  created: number
  currency: string
  destination: string
  failure_code: string | null
  failure_message: string | null
  metadata: Record<string, string>
  method: 'standard'
  status: 'pending' | 'in_transit' | 'paid' | 'failed'
  type: 'bank_account'
  /** Not a Stripe field: the connected account it was made on (Stripe-Account header). */
  account: string
}

export type FakeBalanceTransaction = {
  id: string
  object: 'balance_transaction'
  amount: number
  available_on: number
  created: number
  currency: string
  fee: number
  net: number
  reporting_category: string
  source: string
  status: 'available'
  type:
    | 'charge'
    | 'refund'
    | 'transfer'
    | 'transfer_refund'
    | 'payment'
    | 'payment_refund'
    | 'payout'
    | 'payout_failure'
  /** Not a Stripe field: whose balance (`platform`, or a connected account's id). */
  account: string
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
  /** The Stripe-Account header: the connected account the call was made on. */
  stripeAccount: string | undefined
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
  accounts: Map<string, FakeAccount>
  transfers: Map<string, FakeTransfer>
  payouts: Map<string, FakePayout>
  balanceTransactions: FakeBalanceTransaction[]
  /**
   * The seller finishes (or is stopped in) Stripe's onboarding: the account's payouts are enabled or not,
   * and the `account.updated` event Stripe sends the platform is returned.
   */
  onboard(accountId: string, payoutsEnabled?: boolean): { id: string; payload: string }
  /** A connected account's payout arrives at the bank, or the bank refuses it: its Connect event. */
  settlePayout(payoutId: string, outcome: 'paid' | 'failed'): { id: string; payload: string }
  /** A connected account's balance (what transfers brought, less reversals and payouts). */
  balanceOf(account: string): number
  /** The calls to one endpoint, e.g. callsTo('POST', '/v1/refunds'). */
  callsTo(method: string, path: string): FakeCall[]
  /** What Stripe does when the customer's card is charged: the intent succeeds for its full amount. */
  succeed(intentId: string): FakeIntent
  /** A PaymentIntent created straight at the provider, as someone holding the secret key could. */
  createIntent(params: { amount: number; currency?: string; metadata?: Record<string, string> }): FakeIntent
  /** The next `count` calls to this endpoint are answered with this Stripe error. */
  failNext(path: string, status: number, message: string, count?: number): void
  /** A webhook event wrapping an object, shaped as Stripe sends it (`account` for a connected account's event). */
  event(type: string, object: unknown, account?: string): { id: string; payload: string }
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
  const accounts = new Map<string, FakeAccount>()
  const transfers = new Map<string, FakeTransfer>()
  const payouts = new Map<string, FakePayout>()
  const balanceTransactions: FakeBalanceTransaction[] = []
  /** Stripe replays the first answer to a repeated key, and refuses the key with other parameters. */
  const idempotent = new Map<
    string,
    { path: string; rawBody: string; account: string | undefined; answer: Answer }
  >()
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
      latest_charge: null,
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
    balanceTransaction('platform', 'refund', -amount, refund.id, intent.currency)
    return { status: 200, body: refund }
  }

  function balanceTransaction(
    account: string,
    type: FakeBalanceTransaction['type'],
    amount: number,
    source: string,
    currency = 'usd',
  ): string {
    const id = stripeId('txn')
    const created = now()
    balanceTransactions.push({
      id,
      object: 'balance_transaction',
      amount,
      available_on: created,
      created,
      currency,
      fee: 0,
      net: amount,
      reporting_category: type,
      source,
      status: 'available',
      type,
      account,
    })
    return id
  }

  function balanceOf(account: string): number {
    return balanceTransactions.filter((b) => b.account === account).reduce((sum, b) => sum + b.net, 0)
  }

  function chargedAmount(chargeId: string): number | null {
    for (const intent of intents.values()) {
      if (intent.latest_charge === chargeId) {
        const refunded = refunds
          .filter((r) => r.payment_intent === intent.id)
          .reduce((sum, r) => sum + r.amount, 0)
        return intent.amount_received - refunded
      }
    }
    return null
  }

  function createAccount(params: Record<string, unknown>): Answer {
    const type = String(params.type ?? 'express')
    if (type !== 'express') return stripeError(400, `Only Express accounts are faked here, not '${type}'`)
    const account: FakeAccount = {
      id: stripeId('acct'),
      object: 'account',
      type: 'express',
      country: String(params.country ?? 'US'),
      email: typeof params.email === 'string' ? params.email : null,
      default_currency: 'usd',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      capabilities: { transfers: 'inactive' },
      requirements: {
        currently_due: ['external_account', 'individual.first_name'],
        disabled_reason: 'requirements.past_due',
      },
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      created: now(),
    }
    accounts.set(account.id, account)
    return { status: 200, body: account }
  }

  function createAccountLink(params: Record<string, unknown>): Answer {
    const accountId = String(params.account ?? '')
    if (!accounts.has(accountId))
      return stripeError(400, `No such account: '${accountId}'`, 'resource_missing')
    for (const field of ['refresh_url', 'return_url', 'type']) {
      if (typeof params[field] !== 'string')
        return stripeError(400, `Missing required param: ${field}.`, 'parameter_missing')
    }
    const created = now()
    return {
      status: 200,
      body: {
        object: 'account_link',
        created,
        expires_at: created + 300,
        url: `https://connect.stripe.com/setup/e/${accountId}/${randomBytes(8).toString('hex')}`,
      },
    }
  }

  function createTransfer(params: Record<string, unknown>): Answer {
    const amount = Number(params.amount)
    if (!Number.isInteger(amount) || amount < 1)
      return stripeError(400, 'Invalid positive integer', 'parameter_invalid_integer')
    const destination = String(params.destination ?? '')
    const account = accounts.get(destination)
    if (!account) return stripeError(400, `No such destination: '${destination}'`, 'resource_missing')
    if (account.capabilities.transfers !== 'active') {
      return stripeError(
        400,
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        'insufficient_capabilities_for_transfer',
      )
    }
    const source = typeof params.source_transaction === 'string' ? params.source_transaction : null
    if (source) {
      const charged = chargedAmount(source)
      if (charged === null) return stripeError(400, `No such charge: '${source}'`, 'resource_missing')
      const transferred = [...transfers.values()]
        .filter((t) => t.source_transaction === source)
        .reduce((sum, t) => sum + t.amount - t.amount_reversed, 0)
      if (transferred + amount > charged) {
        return stripeError(
          400,
          `The transfer amount exceeds what is left of the source transaction ${source}.`,
          'transfer_source_balance_parameters_mismatch',
        )
      }
    }
    const id = stripeId('tr')
    const transfer: FakeTransfer = {
      id,
      object: 'transfer',
      amount,
      amount_reversed: 0,
      balance_transaction: balanceTransaction('platform', 'transfer', -amount, id),
      created: now(),
      currency: String(params.currency ?? 'usd'),
      destination,
      destination_payment: stripeId('py'),
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      reversals: {
        object: 'list',
        data: [],
        has_more: false,
        total_count: 0,
        url: `/v1/transfers/${id}/reversals`,
      },
      reversed: false,
      source_transaction: source,
      source_type: 'card',
      transfer_group: typeof params.transfer_group === 'string' ? params.transfer_group : null,
    }
    balanceTransaction(destination, 'payment', amount, transfer.destination_payment)
    transfers.set(id, transfer)
    return { status: 200, body: transfer }
  }

  function reverseTransfer(transferId: string, params: Record<string, unknown>): Answer {
    const transfer = transfers.get(transferId)
    if (!transfer) return stripeError(404, `No such transfer: '${transferId}'`, 'resource_missing')
    const left = transfer.amount - transfer.amount_reversed
    const amount = params.amount === undefined ? left : Number(params.amount)
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      return stripeError(
        400,
        `Transfer ${transferId} has already been reversed.`,
        'transfer_already_reversed',
      )
    }
    const id = stripeId('trr')
    const reversal: FakeReversal = {
      id,
      object: 'transfer_reversal',
      amount,
      balance_transaction: balanceTransaction('platform', 'transfer_refund', amount, id),
      created: now(),
      currency: transfer.currency,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      transfer: transferId,
    }
    // The money leaves the connected account's balance, which may go below zero once it was paid out.
    balanceTransaction(transfer.destination, 'payment_refund', -amount, transfer.destination_payment)
    transfer.amount_reversed += amount
    transfer.reversed = transfer.amount_reversed === transfer.amount
    transfer.reversals.data.unshift(reversal)
    transfer.reversals.total_count += 1
    return { status: 200, body: reversal }
  }

  function createPayout(params: Record<string, unknown>, account: string | undefined): Answer {
    if (!account || !accounts.has(account)) {
      return stripeError(400, 'Payouts are made on a connected account here (Stripe-Account header)')
    }
    const connected = accounts.get(account)
    if (!connected?.payouts_enabled)
      return stripeError(400, 'Payouts are not enabled on this account', 'payouts_not_allowed')
    const amount = Number(params.amount)
    if (!Number.isInteger(amount) || amount < 1)
      return stripeError(400, 'Invalid positive integer', 'parameter_invalid_integer')
    if (balanceOf(account) < amount) {
      return stripeError(400, 'You have insufficient funds in your Stripe account.', 'balance_insufficient')
    }
    const id = stripeId('po')
    const payout: FakePayout = {
      id,
      object: 'payout',
      amount,
      arrival_date: now() + 2 * 86_400,
      automatic: false,
      balance_transaction: balanceTransaction(account, 'payout', -amount, id),
      created: now(),
      currency: String(params.currency ?? 'usd'),
      destination: 'ba_fake_000123456789',
      failure_code: null,
      failure_message: null,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      method: 'standard',
      status: 'in_transit',
      type: 'bank_account',
      account,
    }
    payouts.set(id, payout)
    return { status: 200, body: payout }
  }

  /** A Stripe list: newest first, `limit` and `starting_after` as Stripe pages them. */
  function list<T extends { id: string; created: number }>(
    url: string,
    rows: T[],
    params: Record<string, unknown>,
  ): Answer {
    const newest = [...rows].reverse()
    const limit = Math.min(100, Number(params.limit ?? 10))
    const after =
      typeof params.starting_after === 'string' ? newest.findIndex((r) => r.id === params.starting_after) : -1
    const page = newest.slice(after + 1, after + 1 + limit)
    return {
      status: 200,
      body: { object: 'list', url, has_more: after + 1 + limit < newest.length, data: page },
    }
  }

  const strip = <T extends { account: string }>(row: T) => {
    const { account: _account, ...rest } = row
    return rest
  }

  function route(
    method: string,
    path: string,
    params: Record<string, unknown>,
    account: string | undefined,
  ): Answer {
    if (method === 'POST' && path === '/v1/payment_intents') return createIntent(params)
    if (method === 'POST' && path === '/v1/refunds') return createRefund(params)
    if (method === 'POST' && path === '/v1/accounts') return createAccount(params)
    if (method === 'POST' && path === '/v1/account_links') return createAccountLink(params)
    if (method === 'POST' && path === '/v1/transfers') return createTransfer(params)
    if (method === 'POST' && path === '/v1/payouts') return createPayout(params, account)
    if (method === 'GET' && path === '/v1/transfers') {
      const rows = [...transfers.values()].filter(
        (t) =>
          (params.destination === undefined || t.destination === params.destination) &&
          (params.transfer_group === undefined || t.transfer_group === params.transfer_group),
      )
      return list(path, rows, params)
    }
    if (method === 'GET' && path === '/v1/balance_transactions') {
      const whose = account ?? 'platform'
      const rows = balanceTransactions
        .filter((b) => b.account === whose && (params.type === undefined || b.type === params.type))
        .map(strip)
      return list(path, rows, params)
    }
    const one = /^\/v1\/(accounts|transfers|payouts)\/([A-Za-z0-9_]+)$/.exec(path)
    if (method === 'GET' && one?.[1] && one[2]) {
      const found =
        one[1] === 'accounts'
          ? accounts.get(one[2])
          : one[1] === 'transfers'
            ? transfers.get(one[2])
            : (() => {
                const p = payouts.get(one[2])
                return p && p.account === account ? strip(p) : undefined
              })()
      return found
        ? { status: 200, body: found }
        : stripeError(404, `No such ${one[1].slice(0, -1)}: '${one[2]}'`, 'resource_missing')
    }
    const reversals = /^\/v1\/transfers\/([A-Za-z0-9_]+)\/reversals$/.exec(path)
    if (method === 'POST' && reversals?.[1]) return reverseTransfer(reversals[1], params)
    const match = /^\/v1\/payment_intents\/([A-Za-z0-9_]+)$/.exec(path)
    if (method === 'GET' && match?.[1]) {
      const intent = intents.get(match[1])
      return intent
        ? { status: 200, body: intent }
        : stripeError(404, `No such payment_intent: '${match[1]}'`, 'resource_missing')
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path})`)
  }

  function answer(
    method: string,
    path: string,
    rawBody: string,
    key: string | undefined,
    account: string | undefined,
    query: string,
  ): Answer {
    const failure = failures.get(path)
    if (failure && failure.left > 0) {
      failure.left -= 1
      return stripeError(failure.status, failure.message)
    }
    if (method === 'POST' && key) {
      const earlier = idempotent.get(key)
      if (earlier) {
        if (earlier.path !== path || earlier.rawBody !== rawBody || earlier.account !== account) {
          return stripeError(
            400,
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            undefined,
            'idempotency_error',
          )
        }
        return earlier.answer
      }
      const fresh = route(method, path, decodeForm(rawBody), account)
      // Stripe does not keep answers to requests that failed before doing anything (4xx validation).
      if (fresh.status < 400) idempotent.set(key, { path, rawBody, account, answer: fresh })
      return fresh
    }
    return route(method, path, decodeForm(method === 'GET' ? query : rawBody), account)
  }

  function makeEvent(type: string, object: unknown, account?: string) {
    const id = stripeId('evt')
    const payload = JSON.stringify({
      id,
      object: 'event',
      ...(account ? { account } : {}),
      api_version: '2026-10-28.endive',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    })
    return { id, payload }
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
      const accountHeader = req.headers['stripe-account']
      const stripeAccount = typeof accountHeader === 'string' ? accountHeader : undefined
      let result: Answer
      if (!/^Bearer sk_/.test(req.headers.authorization ?? '')) {
        result = stripeError(401, 'Invalid API Key provided')
      } else {
        result = answer(method, url.pathname, rawBody, key, stripeAccount, url.search.slice(1))
      }
      calls.push({
        method,
        path: url.pathname,
        idempotencyKey: key,
        stripeAccount,
        params: decodeForm(method === 'GET' ? url.search.slice(1) : rawBody),
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
    accounts,
    transfers,
    payouts,
    balanceTransactions,
    balanceOf,
    onboard(accountId, payoutsEnabled = true) {
      const account = accounts.get(accountId)
      if (!account) throw new Error(`fake Stripe: no account ${accountId}`)
      account.details_submitted = true
      account.charges_enabled = payoutsEnabled
      account.payouts_enabled = payoutsEnabled
      account.capabilities.transfers = payoutsEnabled ? 'active' : 'inactive'
      account.requirements = payoutsEnabled
        ? { currently_due: [], disabled_reason: null }
        : { currently_due: ['individual.verification.document'], disabled_reason: 'requirements.past_due' }
      return makeEvent('account.updated', structuredClone(account), accountId)
    },
    settlePayout(payoutId, outcome) {
      const payout = payouts.get(payoutId)
      if (!payout) throw new Error(`fake Stripe: no payout ${payoutId}`)
      if (payout.status === 'in_transit') {
        payout.status = outcome
        if (outcome === 'failed') {
          payout.failure_code = 'account_closed'
          payout.failure_message = 'The bank account has been closed.'
          // Stripe returns a failed payout's money to the connected account's balance.
          balanceTransaction(payout.account, 'payout_failure', payout.amount, payout.id)
        }
      }
      return makeEvent(`payout.${outcome}`, strip(payout), payout.account)
    },
    callsTo: (method, path) => calls.filter((c) => c.method === method && c.path === path),
    succeed(intentId) {
      const intent = intents.get(intentId)
      if (!intent) throw new Error(`fake Stripe: no intent ${intentId}`)
      if (intent.status !== 'succeeded') {
        intent.status = 'succeeded'
        intent.amount_received = intent.amount
        intent.latest_charge = stripeId('ch')
        balanceTransaction('platform', 'charge', intent.amount, intent.latest_charge, intent.currency)
      }
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
    event: makeEvent,
    reset() {
      calls.length = 0
      refunds.length = 0
      intents.clear()
      accounts.clear()
      transfers.clear()
      payouts.clear()
      balanceTransactions.length = 0
      idempotent.clear()
      failures.clear()
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())))
    },
  }
}
