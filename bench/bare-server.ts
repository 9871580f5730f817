// The ceiling a public read endpoint is measured against: a bare node:http server answering the same bytes (no
// routing, no hooks), and the settings the app is built with beside it. Used by `npm run bench` (bench/run.ts) and
// `npx tsx bench/ratio.ts`.
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** A bare server answering every request with `body`, listening on a free port of 127.0.0.1. */
export function bareServer(
  body: Buffer,
  contentType: string,
  /** The body's encoding (br, gzip), when it is sent compressed. */
  contentEncoding?: string,
): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': contentType,
      'content-length': body.length,
      ...(contentEncoding ? { 'content-encoding': contentEncoding } : {}),
    })
    res.end(body)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    )
  })
}

/** The settings the app is measured with: production, logging off, on a free port of 127.0.0.1. */
export const benchAppSettings = (dataDir: string) => ({
  NODE_ENV: 'production',
  AUTH_SECRET: randomBytes(32).toString('hex'),
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'silent',
})
