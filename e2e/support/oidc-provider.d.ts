// The few parts of `oidc-provider` (which ships no types) that the local OpenID provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  type Account = { accountId: string; claims: () => Promise<Record<string, unknown>> }

  export type Configuration = {
    clients?: Record<string, unknown>[]
    jwks?: { keys: Record<string, unknown>[] }
    cookies?: { keys: string[] }
    claims?: Record<string, string[]>
    features?: Record<string, unknown>
    ttl?: Record<string, number>
    findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
