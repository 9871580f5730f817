// A listing's photos are always served by us. An https image URL a seller gives is fetched once by the server
// and then checked and stored like an upload, so no viewer's browser calls an outside host (a tracking beacon,
// and a largest paint we do not control). The fetch reaches public addresses only, every redirect is checked
// the same way, and it is limited in time, size and type.
import dns from 'node:dns'
import https from 'node:https'
import net from 'node:net'
import { UPLOAD_LIMITS } from '#contract/products'

export const OUTSIDE_IMAGE_TIMEOUT_MS = 8_000
const MAX_REDIRECTS = 3
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp'])

/** Fetches an outside image's bytes, or throws an Error whose message says why not (shown to the seller). */
export type FetchOutsideImage = (url: string) => Promise<Buffer>

const NOT_PUBLIC = new net.BlockList()
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv4')
for (const [address, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6')

/** True for an address on the public internet (not loopback, private, link-local, documentation…). */
export function isPublicAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped?.[1]) return isPublicAddress(mapped[1])
  const family = net.isIP(ip)
  if (family === 0) return false
  return !NOT_PUBLIC.check(ip, family === 4 ? 'ipv4' : 'ipv6')
}

class RefusedImage extends Error {}

/** Resolves like the system does, then refuses anything but a public address (checked at connect time). */
const publicLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: false }, (err, address, family) => {
    if (err) return callback(err, '', 0)
    if (!isPublicAddress(String(address))) {
      return callback(new RefusedImage('its address is not on the public internet'), '', 0)
    }
    callback(null, address, family)
  })
}

function getOnce(url: URL): Promise<{ status: number; location?: string; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '')
    if (net.isIP(host) && !isPublicAddress(host)) {
      reject(new RefusedImage('its address is not on the public internet'))
      return
    }
    const req = https.get(url, {
      lookup: publicLookup,
      headers: { accept: 'image/webp,image/png,image/jpeg' },
      timeout: OUTSIDE_IMAGE_TIMEOUT_MS,
    })
    const timer = setTimeout(
      () => req.destroy(new RefusedImage('it took too long')),
      OUTSIDE_IMAGE_TIMEOUT_MS,
    )
    req.on('timeout', () => req.destroy(new RefusedImage('it took too long')))
    req.on('error', (err) => {
      clearTimeout(timer)
      reject(err instanceof RefusedImage ? err : new RefusedImage('it could not be reached'))
    })
    req.on('response', (res) => {
      const status = res.statusCode ?? 0
      const type = String(res.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim()
        .toLowerCase()
      if (status >= 300 && status < 400) {
        clearTimeout(timer)
        res.resume()
        resolve({ status, location: res.headers.location, type: '', body: Buffer.alloc(0) })
        return
      }
      const declared = Number(res.headers['content-length'] ?? 0)
      if (declared > UPLOAD_LIMITS.maxBytes) {
        req.destroy(new RefusedImage('it is larger than 10 MB'))
        return
      }
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > UPLOAD_LIMITS.maxBytes) req.destroy(new RefusedImage('it is larger than 10 MB'))
        else chunks.push(chunk)
      })
      res.on('end', () => {
        clearTimeout(timer)
        resolve({ status, type: type ?? '', body: Buffer.concat(chunks) })
      })
    })
  })
}

/** The real fetch: https only, public addresses only (each redirect too), 10 MB, a few seconds, an image type. */
export const fetchOutsideImage: FetchOutsideImage = async (address) => {
  let url = new URL(address)
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== 'https:') throw new RefusedImage('it is not an https address')
    const answer = await getOnce(url)
    if (answer.location !== undefined) {
      url = new URL(answer.location, url)
      continue
    }
    if (answer.status !== 200) throw new RefusedImage(`its server answered ${answer.status}`)
    if (!IMAGE_TYPES.has(answer.type)) throw new RefusedImage('it is not a JPEG, PNG or WebP image')
    return answer.body
  }
  throw new RefusedImage('it redirects too many times')
}
