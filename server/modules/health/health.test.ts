import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Health } from '#contract/health'
import { loadFacts } from '#server/modules/search'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(async () => {
  await t?.close()
})

describe('GET /api/health', () => {
  it('answers ok with the database up and the driver in use', async () => {
    const res = await t.app.inject('/api/health')
    expect(res.statusCode).toBe(200)
    const body = Health.parse(res.json())
    expect(body).toMatchObject({
      status: 'ok',
      database: 'up',
      driver: process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite',
    })
    expect(body.uptime_s).toBeGreaterThanOrEqual(0)
  })

  it('answers 503 degraded, still in the contract shape, when the database does not answer', async () => {
    const ping = vi.spyOn(t.app.ctx.database, 'ping').mockResolvedValue(false)
    try {
      const res = await t.app.inject('/api/health')
      expect(res.statusCode).toBe(503)
      expect(Health.parse(res.json())).toMatchObject({ status: 'degraded', database: 'down' })
    } finally {
      ping.mockRestore()
    }
    expect((await t.app.inject('/api/health')).statusCode).toBe(200)
  })

  it('answers 503 draining, without asking the database, once the instance is shutting down', async () => {
    const ping = vi.spyOn(t.app.ctx.database, 'ping')
    t.app.ctx.lifecycle.draining = true
    try {
      const res = await t.app.inject('/api/health')
      expect(res.statusCode).toBe(503)
      expect(Health.parse(res.json())).toMatchObject({ status: 'draining' })
      expect(ping).not.toHaveBeenCalled()
      // Everything else is still answered while the balancer turns away, each answer closing its connection.
      const read = await t.app.inject('/api/brands')
      expect(read.statusCode).toBe(200)
      expect(read.headers.connection).toBe('close')
    } finally {
      t.app.ctx.lifecycle.draining = false
      ping.mockRestore()
    }
  })

  it('in the last step of draining answers reads 503 (a balancer resends them) and still serves writes', async () => {
    t.app.ctx.lifecycle.draining = true
    t.app.ctx.lifecycle.turningAway = true
    try {
      const read = await t.app.inject('/api/brands')
      expect(read.statusCode).toBe(503)
      expect(read.headers.connection).toBe('close')
      expect(read.json()).toMatchObject({ error: { message: expect.stringMatching(/shutting down/) } })
      expect((await t.app.inject('/api/health')).json()).toMatchObject({ status: 'draining' })
      // A write is never resent by a balancer, so it is served as usual (here: refused for want of a session).
      const write = await t.app.inject({ method: 'POST', url: '/api/products', payload: {} })
      expect(write.statusCode).toBe(401)
      expect(write.headers.connection).toBe('close')
    } finally {
      t.app.ctx.lifecycle.draining = false
      t.app.ctx.lifecycle.turningAway = false
    }
  })

  it("tells the version, size and load time of the instance's copy of the listings' facts once it is loaded", async () => {
    // Nothing has searched yet: the instance holds no copy.
    expect(Health.parse((await t.app.inject('/api/health')).json()).listing_copy).toBeNull()
    const facts = await loadFacts(t.app.ctx.database.db)
    const body = Health.parse((await t.app.inject('/api/health')).json())
    expect(body.listing_copy).toEqual({
      version: facts?.version,
      listings: facts?.size,
      load_ms: expect.any(Number),
    })
  })

  it('keeps connections open while the instance is not draining', async () => {
    expect((await t.app.inject('/api/brands')).headers.connection).not.toBe('close')
  })

  it('answers HEAD too, for load balancers', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/api/health' })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
  })
})
