import { createHash } from 'node:crypto'

/**
 * A UUID derived from a name (RFC 4122 version 5 layout), so the demo rows get the same ids on
 * every seed and links to demo listings keep working after the database is recreated.
 */
export function stableUuid(name: string): string {
  const bytes = createHash('sha1').update(`laptop-market-demo:${name}`).digest().subarray(0, 16)
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x50
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
