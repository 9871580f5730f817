import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import type { Config } from '#server/config'
import { sendError } from './error-handler'

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']
/** Vite's dev server (`npm run dev`, vite.config.ts `server.port`): its proxy passes the browser's Origin on. */
export const DEV_SERVER_PORT = 5173

/**
 * The origins our own pages are served from: PUBLIC_URL's, and out of production, when PUBLIC_URL is a
 * loopback address, its other loopback spellings on the same port (a newcomer opening 127.0.0.1 instead
 * of localhost) and the dev server's address (`npm run dev` serves the pages from Vite on its own port and
 * proxies /api here with the browser's Origin unchanged).
 */
export function ownOrigins(config: Config): string[] {
  const url = new URL(config.publicUrl)
  const origins = [url.origin]
  if (config.env !== 'production' && LOOPBACK.includes(url.hostname)) {
    for (const port of [url.port, String(DEV_SERVER_PORT)]) {
      for (const host of LOOPBACK) {
        const other = new URL(url.origin)
        other.hostname = host
        other.port = port
        if (!origins.includes(other.origin)) origins.push(other.origin)
      }
    }
  }
  return origins
}

export function refusedOriginMessage(config: Config, origin: string | undefined): string {
  return (
    `This request came from ${origin ?? 'another site'}, not from this server's address (${config.publicUrl}). ` +
    'Open the app at that address, or set PUBLIC_URL to the address you use.'
  )
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Cookie-authenticated changes must come from our own pages: SameSite=Lax alone lets a same-site
 * subdomain forge them. A browser sends Origin (or at least Sec-Fetch-Site) with every such request;
 * a request with neither is not a browser's. Bearer-authenticated API clients are not affected, and
 * sign-up and sign-in (no cookie yet) are checked the same way so the refusal says what to set.
 */
export function originCheck(config: Config) {
  const own = new Set(ownOrigins(config))
  // A callback hook, not an async one: every request passes here, and a read leaves at once, with no promise to wait on.
  return (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (SAFE_METHODS.has(req.method) || req.headers.authorization !== undefined) return done()
    const isAuthCall = req.url.startsWith('/api/auth/')
    if (!req.headers.cookie && !isAuthCall) return done()
    const origin = req.headers.origin
    const site = req.headers['sec-fetch-site']
    const refused =
      origin !== undefined
        ? !own.has(origin)
        : site !== undefined && site !== 'same-origin' && site !== 'none'
    if (refused) sendError(reply, 403, 'FORBIDDEN', refusedOriginMessage(config, origin))
    else done()
  }
}
