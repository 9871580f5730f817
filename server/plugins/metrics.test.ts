import { randomUUID } from 'node:crypto'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppInstance } from '#server/app-context'
import { signUp } from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { METRIC_NAMES, metricsPlugin } from './metrics'

const TOKEN = 'metrics-token-0123456789abcdef'
const scrape = (t: TestApp, authorization?: string) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} })

/** The value of one sample (a metric with exactly these labels), or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const got = (m[2] ?? '')
      .split(/,(?=[a-z_]+=")/)
      .filter(Boolean)
      .sort()
    if (got.join(',') === wanted.join(',')) return Number(m[3])
  }
  return undefined
}

describe('/metrics without METRICS_TOKEN', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  it('is not there at all', async () => {
    const res = await scrape(t, `Bearer ${TOKEN}`)
    expect(res.statusCode).toBe(404)
    expect(res.body).not.toContain('laptop_market_')
  })
})

describe('/metrics with METRICS_TOKEN', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN })
  })
  afterAll(async () => {
    await t?.close()
  })

  it('answers 401 without the token or with another one', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN]) {
      const res = await scrape(t, authorization)
      expect(res.statusCode, String(authorization)).toBe(401)
      expect(res.headers['www-authenticate']).toBe('Bearer')
      expect(res.body).not.toContain('laptop_market_')
    }
  })

  it('counts a request under its route pattern and status, never the address asked for', async () => {
    const id = randomUUID()
    const before = sample((await scrape(t, `Bearer ${TOKEN}`)).body, METRIC_NAMES.requests, {
      method: 'GET',
      route: '/api/products/:id',
      status: '404',
    })
    expect((await t.app.inject({ method: 'GET', url: `/api/products/${id}` })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/api/search?q=thinkpad' })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: `/api/no-such-thing/${id}` })).statusCode).toBe(404)
    const res = await scrape(t, `Bearer ${TOKEN}`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    const text = res.body
    const labels = { method: 'GET', route: '/api/products/:id', status: '404' }
    expect(sample(text, METRIC_NAMES.requests, labels)).toBe((before ?? 0) + 1)
    expect(sample(text, `${METRIC_NAMES.requestSeconds}_count`, labels)).toBe((before ?? 0) + 1)
    expect(sample(text, `${METRIC_NAMES.searchSeconds}_count`, { route: '/api/search' })).toBe(1)
    expect(
      sample(text, METRIC_NAMES.requests, { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1)
    // Labels are patterns: no id, query or unknown path reaches a label.
    expect(text).not.toContain(id)
    expect(text).not.toContain('thinkpad')
    for (const route of text.matchAll(/route="([^"]*)"/g)) expect(route[1]).toMatch(/^(\/[^?]*|unmatched)$/)
  })

  it('reads the queues, the email backlog, payouts, the ledger and photos from the database', async () => {
    // A sign-up queues its verification email; no worker runs in tests, so it waits.
    await signUp(t.app, { role: 'buyer' })
    const text = (await scrape(t, `Bearer ${TOKEN}`)).body
    expect(sample(text, METRIC_NAMES.figuresUp)).toBe(1)
    expect(sample(text, METRIC_NAMES.emailBacklog)).toBeGreaterThanOrEqual(1)
    expect(sample(text, METRIC_NAMES.queueWaiting, { queue: 'email' })).toBeGreaterThanOrEqual(1)
    expect(sample(text, METRIC_NAMES.queueOldest, { queue: 'email' })).toBeGreaterThanOrEqual(0)
    expect(sample(text, METRIC_NAMES.queueFailed, { queue: 'payouts.run' })).toBe(0)
    expect(sample(text, METRIC_NAMES.payouts, { state: 'failed' })).toBe(0)
    expect(sample(text, METRIC_NAMES.ledgerBalanced)).toBe(1)
    expect(sample(text, METRIC_NAMES.photoBytes)).toBe(0)
    expect(sample(text, 'laptop_market_process_resident_memory_bytes')).toBeGreaterThan(0)
  })
})

describe('figures that take too long', () => {
  it('are left out of the scrape, which answers in time and says so', async () => {
    const app = Fastify({ logger: false })
    metricsPlugin(app as unknown as AppInstance, {
      token: TOKEN,
      readFigures: () => new Promise(() => {}),
      figuresTimeoutMs: 50,
    })
    const res = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    })
    expect(res.statusCode).toBe(200)
    expect(sample(res.body, METRIC_NAMES.figuresUp)).toBe(0)
    expect(sample(res.body, METRIC_NAMES.figuresSeconds)).toBeLessThan(1)
    await app.close()
  })
})
