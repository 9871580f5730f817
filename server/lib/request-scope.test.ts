import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { installRequestScope, requestIdMixin, requestIdOf } from './request-scope'

function collect() {
  const lines: Record<string, unknown>[] = []
  const raw: string[] = []
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        raw.push(line)
        lines.push(JSON.parse(line))
      }
      cb()
    },
  })
  return { lines, raw, stream }
}

describe("a request's log lines", () => {
  it("carry its id, also lines written through the app's logger or a module's child of it, after awaits", async () => {
    const { lines, raw, stream } = collect()
    const app = Fastify({ logger: { level: 'info', stream, mixin: requestIdMixin }, genReqId: requestIdOf })
    installRequestScope(app)
    const moduleLog = app.log.child({ module: 'mail' })
    app.get('/work', async (req) => {
      req.log.info('by the request')
      await new Promise((r) => setTimeout(r, 5))
      app.log.info('by the app')
      await Promise.resolve()
      moduleLog.info('by a module')
      return { ok: true }
    })
    await app.ready()
    app.log.info('outside any request')
    const res = await app.inject({ method: 'GET', url: '/work' })
    const id = res.headers['x-request-id']
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const mine = lines.filter((l) => l.reqId === id).map((l) => l.msg)
    expect(mine).toEqual(
      expect.arrayContaining([
        'incoming request',
        'by the request',
        'by the app',
        'by a module',
        'request completed',
      ]),
    )
    // Once, not twice, on a line of the request's own logger.
    const ownLine = raw.find((l) => l.includes('"by the request"')) ?? ''
    expect(ownLine.split('"reqId"').length).toBe(2)
    expect(lines.find((l) => l.msg === 'outside any request')?.reqId).toBeUndefined()
    await app.close()
  })

  it('keep an id the balancer in front passed (X-Request-Id) and make a new one for a strange one', () => {
    const req = (value?: string) => ({ headers: value ? { 'x-request-id': value } : {} }) as never
    expect(requestIdOf(req('3f2a9c1d0e8b47a6b5c4d3e2f1a0b9c8'))).toBe('3f2a9c1d0e8b47a6b5c4d3e2f1a0b9c8')
    expect(requestIdOf(req('bad id\nwith a line break'))).toMatch(/^[0-9a-f-]{36}$/)
    expect(requestIdOf(req())).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('the app', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(async () => {
    await t?.close()
  })

  it('names each request by a different id in its answer', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/brands' })
    const b = await t.app.inject({ method: 'GET', url: '/api/brands' })
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id'])
  })
})
