import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { RouteObject } from 'react-router'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppInstance, buildApp } from '#server/app'
import { loadConfig } from '#server/config'
import type { Db } from '#server/db/client'
import { MemoryMediaStorage } from '#server/lib/storage'
import { signIn, TEST_PASSWORD } from '#server/test/auth-helpers'
import { createUser } from '#server/test/factories'
import { openTestDatabase } from '#server/test/test-app'
import { ROUTES } from '../../../web/src/app/router'

// Every page the web app's router has answers 200 when loaded directly (a refresh, a link from an email), not only
// when reached by a click inside the app: the list is read from the router itself, so a page added there and not
// to the server's list of page paths fails here.

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-router-pages-'))
fs.copyFileSync(path.resolve(import.meta.dirname, '../../../web/index.html'), path.join(webDir, 'index.html'))

let app: AppInstance
let close: () => Promise<void>
let db: Db

/** Every path of the router's routes, parameters filled with a sample value; the catch-all left out. */
function routerPaths(): string[] {
  const out = new Set<string>()
  const walk = (list: RouteObject[], parent: string) => {
    for (const r of list) {
      if (r.path === '*') continue
      const full = r.path ? `${parent.replace(/\/$/, '')}/${r.path}` : parent
      if (r.index || r.path) out.add(full)
      if (r.children) walk(r.children, full)
    }
  }
  walk(ROUTES, '/')
  return [...out].map((p) => p.replace(/:[A-Za-z]+/g, 'sample-id'))
}

beforeAll(async () => {
  const opened = await openTestDatabase()
  app = await buildApp({
    config: {
      ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0' }),
      webDistDir: webDir,
    },
    database: opened.database,
    storage: new MemoryMediaStorage(),
    logger: false,
  })
  await app.ready()
  db = opened.database.db
  close = async () => {
    await app.close()
    await opened.database.close()
    await opened.drop()
  }
})

afterAll(async () => {
  await close?.()
  fs.rmSync(webDir, { recursive: true, force: true })
})

describe('a direct load of every page of the router', () => {
  it('answers 200, signed out and signed in as an admin, every dashboard page included', async () => {
    const paths = routerPaths()
    // The list is the router's: it holds the admin's pages, listing reviews among them.
    expect(paths).toContain('/dashboard/listing-reviews')
    expect(paths).toContain('/dashboard')
    expect(paths.filter((p) => p.startsWith('/dashboard')).length).toBeGreaterThan(20)
    const admin = await createUser(db, { role: 'admin', password: TEST_PASSWORD })
    const { cookie } = await signIn(app, { email: admin.email })
    const refused: string[] = []
    for (const url of paths) {
      for (const headers of [{}, { cookie }]) {
        const res = await app.inject({ url, headers })
        if (res.statusCode !== 200)
          refused.push(`${url} ${res.statusCode}${headers.cookie ? ' (admin)' : ''}`)
      }
    }
    expect(refused).toEqual([])
    // And a path the router does not have still answers 404.
    expect((await app.inject({ url: '/dashboard/no-such-page' })).statusCode).toBe(404)
  })
})
