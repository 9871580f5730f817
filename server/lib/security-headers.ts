import type { ServerResponse } from 'node:http'
import helmet, { type HelmetOptions } from 'helmet'

/**
 * The security headers of every answer (CSP, nosniff, frame and referrer policies…), worked out once at
 * start from helmet's rules. Running helmet's middleware per request rebuilt them each time and cost the
 * public read endpoints a third of their throughput; these values never change while the process runs.
 */
export function securityHeaders(opts: {
  production: boolean
  /** CSP sources (`'sha256-…'`) of the inline scripts the app's own pages carry: the rendered pages' boot script. */
  scriptHashes?: string[]
}): Record<string, string> {
  const options: HelmetOptions = {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(opts.scriptHashes ?? []), 'https://js.stripe.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:', 'http:'],
        connectSrc: ["'self'", 'https://api.stripe.com'],
        frameSrc: ['https://js.stripe.com', 'https://hooks.stripe.com'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: opts.production,
  }
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
  }
  helmet(options)({} as never, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err
  })
  return headers
}
