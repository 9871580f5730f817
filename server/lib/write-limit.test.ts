import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/test/test-app'

describe('limit on changes per client address', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' })
  })
  afterAll(() => t.close())

  it('answers 429 with Retry-After once an address has made its changes for the minute, and never limits reads', async () => {
    const post = () =>
      t.app.inject({ method: 'POST', url: '/api/reports', payload: {}, remoteAddress: '10.9.8.7' })
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await post()).statusCode)
    expect(statuses).toEqual([401, 401, 401, 429])
    const limited = await post()
    expect(limited.json()).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.stringContaining('Too many requests') },
    })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0)

    const other = await t.app.inject({
      method: 'POST',
      url: '/api/reports',
      payload: {},
      remoteAddress: '10.9.8.6',
    })
    expect(other.statusCode).toBe(401)
    // Without TRUST_PROXY a forged X-Forwarded-For does not make a new client address.
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/reports',
      payload: {},
      remoteAddress: '10.9.8.7',
      headers: { 'x-forwarded-for': '198.51.100.1' },
    })
    expect(forged.statusCode).toBe(429)
    for (let i = 0; i < 10; i++) {
      expect((await t.app.inject({ url: '/api/brands', remoteAddress: '10.9.8.7' })).statusCode).toBe(200)
    }
  })
})
