// The fault drills (`npm run bench:crash`, `npm run bench:soak`) sign up and book from one address, as no real
// visitor could: the settings they hand their app instances must let that through on a configuration read from
// exactly those settings (and none of the test defaults), or the drill stops at its eleventh sign-up.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DRILL_ENV } from '../bench/drill-env'
import { assertPortFree } from '../cluster/ports'
import { type AppInstance, buildApp } from './app'
import { loadConfig } from './config'
import { MemoryMediaStorage } from './lib/storage'
import { originOf, signUp, uniqueEmail } from './test/auth-helpers'
import { createBrand, createProduct, createUser } from './test/factories'
import { openTestDatabase } from './test/test-app'

let app: AppInstance
let close: () => Promise<void>
beforeAll(async () => {
  const { database, drop } = await openTestDatabase()
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...DRILL_ENV })
  app = await buildApp({
    config,
    database,
    storage: new MemoryMediaStorage(),
    logger: false,
    mailTransport: { kind: 'smtp', send: async () => ({}), close() {} },
  })
  await app.ready()
  close = async () => {
    await app.close()
    await database.close()
    await drop()
  }
})
afterAll(async () => {
  await close?.()
})

describe("the drills' settings", () => {
  it('turn the per-address sign-up limit off (0 means off): 11 accounts from one address, one more than the default allows', async () => {
    expect(loadConfig({ SIGNUPS_PER_ADDRESS_PER_HOUR: '0' }).signupsPerAddressPerHour).toBe(0)
    for (let i = 0; i < 11; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin: originOf(app) },
        payload: {
          name: `Drill ${i}`,
          email: uniqueEmail('drill'),
          password: 'drill-pass-42',
          role: 'buyer',
        },
      })
      expect(res.statusCode, `sign-up ${i + 1}: ${res.body}`).toBe(200)
    }
  }, 60_000)

  it('let one buyer hold more open bookings than a visitor may', async () => {
    const buyer = await signUp(app, { role: 'buyer' })
    const seller = await createUser(app.ctx.db, { role: 'seller' })
    const brand = await createBrand(app.ctx.db)
    for (let i = 0; i < 8; i++) {
      const product = await createProduct(app.ctx.db, { seller, brand })
      const res = await app.inject({
        method: 'POST',
        url: '/api/bookings',
        headers: { origin: originOf(app), cookie: buyer.cookie },
        payload: { productId: product.id, phoneNumber: '(512) 555-0100', location: 'Austin, TX' },
      })
      expect(res.statusCode, `booking ${i + 1}: ${res.body}`).toBe(201)
    }
  })
})

describe('a drill starting its server', () => {
  it('refuses a port a server left from an earlier run still listens on, and takes a free one', async () => {
    const leftover = net.createServer()
    await new Promise<void>((resolve) => leftover.listen(0, '127.0.0.1', resolve))
    const port = (leftover.address() as net.AddressInfo).port
    await expect(assertPortFree(port)).rejects.toThrow(`Port ${port} on 127.0.0.1 is already in use`)
    await new Promise((resolve) => leftover.close(resolve))
    await expect(assertPortFree(port)).resolves.toBeUndefined()
  })
})
