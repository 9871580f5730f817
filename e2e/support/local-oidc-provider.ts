import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair } from 'jose'
import Provider from 'oidc-provider'

export type LocalOidcProvider = {
  issuer: string
  clientId: string
  clientSecret: string
  close: () => Promise<void>
}

export type LocalAccount = { login: string; email: string; name: string }

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1 only, standing in for Google. Its
 * built-in development login page accepts any login; `accounts` says which email and name each login has.
 * One confidential client, allowed to return only to the app's Better Auth callback.
 */
export async function startLocalOidcProvider(options: {
  appBaseURL: string
  accounts: LocalAccount[]
}): Promise<LocalOidcProvider> {
  const server = http.createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const issuer = `http://127.0.0.1:${port}`
  const clientId = 'laptop-market-e2e'
  const clientSecret = `secret-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`

  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const signingKey = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'e2e-key' }
  const byLogin = new Map(options.accounts.map((a) => [a.login, a]))

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${options.appBaseURL}/api/auth/callback/google`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [`cookie-${clientSecret}`] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    // Short lifetimes, set explicitly so the provider does not print a notice for each default.
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    async findAccount(_ctx, sub) {
      const account = byLogin.get(sub)
      if (!account) return undefined
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: true, name: account.name }),
      }
    },
  })
  provider.on('server_error', (_ctx, err) => console.error('local OpenID provider:', err))
  server.on('request', provider.callback())

  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
