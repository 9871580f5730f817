import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditKindsSince, bearerTokenFor, lastAuditId, postAuth, signUp } from '#server/test/auth-helpers'
import { createTestApp, type TestApp } from '#server/test/test-app'
import { unsubscribeToken } from '../modules/alerts/unsubscribe-token'

// What a signed-in person reads must not stay in a browser's or a shared cache for the next person at the same
// computer; what a visitor reads keeps its own caching. Name and email-preference changes are security events.

let t: TestApp

beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t?.close())

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers })

describe('Cache-Control on /api answers', () => {
  it('is no-store on every answer to a request with a session, cookie or bearer token', async () => {
    const seller = await signUp(t.app, { role: 'seller' })
    const bearer = `Bearer ${await bearerTokenFor(t.app, seller)}`
    for (const url of [
      '/api/me',
      '/api/email-settings',
      '/api/me/sessions',
      '/api/auth/get-session',
      '/api/auth/list-sessions',
      '/api/products',
      '/api/brands',
      '/api/no-such-route',
    ]) {
      const byCookie = await get(url, { cookie: seller.cookie })
      expect(byCookie.headers['cache-control'], `${url} with a cookie`).toMatch(/\bno-store\b/)
      const byBearer = await get(url, { authorization: bearer })
      expect(byBearer.headers['cache-control'], `${url} with a bearer token`).toMatch(/\bno-store\b/)
    }
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/email-settings',
      headers: { cookie: seller.cookie, origin: t.app.ctx.config.publicUrl },
      payload: { listings: false },
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.headers['cache-control']).toMatch(/\bno-store\b/)
  })

  it("a visitor's public answers and pages keep their caching", async () => {
    for (const url of ['/api/products', '/api/brands', '/robots.txt']) {
      const visitor = await get(url)
      expect(visitor.statusCode, url).toBeLessThan(500)
      expect(String(visitor.headers['cache-control'] ?? ''), url).not.toMatch(/no-store/)
    }
    // A page's own caching is the page's: a signed-in person's page is not an /api answer.
    const page = await get('/robots.txt', { cookie: 'better-auth.session_token=x.y' })
    expect(String(page.headers['cache-control'] ?? '')).not.toMatch(/no-store/)
  })
})

describe('security events', () => {
  it('a name change and an email-preference change are written to the person’s own log', async () => {
    const buyer = await signUp(t.app, { role: 'buyer' })
    const before = await lastAuditId(t.db)
    const renamed = await postAuth(t.app, '/update-user', buyer.cookie, { name: 'New Name' })
    expect(renamed.statusCode, renamed.body).toBe(200)
    const picture = await postAuth(t.app, '/update-user', buyer.cookie, {
      image: 'https://example.test/me.png',
    })
    expect(picture.statusCode, picture.body).toBe(200)
    const prefs = await t.app.inject({
      method: 'PUT',
      url: '/api/email-settings',
      headers: { cookie: buyer.cookie, origin: t.app.ctx.config.publicUrl },
      payload: { alerts: false },
    })
    expect(prefs.statusCode, prefs.body).toBe(200)
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/email-settings',
      headers: { cookie: buyer.cookie, origin: t.app.ctx.config.publicUrl },
      payload: { nonsense: true },
    })
    expect(refused.statusCode).toBe(400)
    expect(await auditKindsSince(t.db, before, buyer.user.id)).toEqual([
      'account.name:success',
      'email.preferences:success',
      'email.preferences:failure',
    ])
    // The one-click unsubscribe link of an alert email changes them too, without a session.
    const token = unsubscribeToken(t.app.ctx.config, { kind: 'favourites', userId: buyer.user.id })
    const click = await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${token}` })
    expect(click.json()).toEqual({ acknowledged: true, modifiedCount: 1 })
    expect((await auditKindsSince(t.db, before, buyer.user.id)).at(-1)).toBe('email.preferences:success')
    const mine = await get('/api/me/security-events', { cookie: buyer.cookie })
    const labels = JSON.stringify(mine.json())
    expect(labels).toContain('account.name')
    expect(labels).toContain('email.preferences')
  })
})
