// The carrier platform: EasyPost's official SDK (`@easypost/api`), pointed at api.easypost.com when
// EASYPOST_API_KEY is set, else at the built-in test carrier this app serves itself (test-carrier.routes.ts,
// under /test-carrier/v2/). Either way every carrier call goes through the SDK over HTTP: in test mode to a
// listener on the loopback address that hands each request to this app's own routes, so the SDK's requests
// and our answers are real HTTP whether or not the app itself listens (tests use `inject`).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import EasyPostClient from '@easypost/api'
import type { AppContext, AppInstance } from '#server/app-context'

export type CarrierMode = 'easypost' | 'test'

export type Carrier = {
  mode: CarrierMode
  /** The SDK's client, its base URL chosen by the mode. */
  client(): Promise<InstanceType<typeof EasyPostClient>>
  /** The secret `tracker.updated` webhooks are signed with (EasyPost's, or the one the test carrier shares). */
  webhookSecret: string
  /** The test carrier's own address (its loopback listener), for its webhooks and label links. */
  testBaseUrl(): Promise<string>
  close(): Promise<void>
}

/** The API key the SDK sends to the test carrier (it needs one; the test carrier accepts any). */
const TEST_API_KEY = 'EZTKtestcarrier'

const carriers = new WeakMap<AppContext, Carrier>()

/** The app's carrier, made when the shipping module is registered (server/modules/shipping/index.ts). */
export function carrierOf(ctx: AppContext): Carrier {
  const carrier = carriers.get(ctx)
  if (!carrier) throw new Error('Shipping: the carrier is not set up (registerShipping was not called)')
  return carrier
}

export function createCarrier(app: AppInstance): Carrier {
  const { shipping } = app.ctx.config
  let loopback: Promise<{ server: http.Server; url: string }> | undefined
  let client: InstanceType<typeof EasyPostClient> | undefined

  const testBaseUrl = async () => {
    loopback ??= new Promise((resolve, reject) => {
      const server = http.createServer((req, res) => app.routing(req, res))
      server.on('error', reject)
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo
        resolve({ server, url: `http://127.0.0.1:${port}` })
      })
    })
    return (await loopback).url
  }

  const carrier: Carrier = {
    mode: shipping.easypostApiKey ? 'easypost' : 'test',
    webhookSecret: shipping.webhookSecret,
    testBaseUrl,
    async client() {
      if (client) return client
      client = shipping.easypostApiKey
        ? new EasyPostClient(shipping.easypostApiKey, { timeout: 20_000 })
        : new EasyPostClient(TEST_API_KEY, {
            baseUrl: `${await testBaseUrl()}/test-carrier/v2/`,
            timeout: 20_000,
          })
      return client
    },
    async close() {
      if (!loopback) return
      const { server } = await loopback
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  carriers.set(app.ctx, carrier)
  return carrier
}
