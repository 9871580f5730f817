// The token in an alert email's unsubscribe link: what to turn off (one saved search's alert, the
// favourites' alerts, or the daily digest) and whose, signed with a key derived from AUTH_SECRET so nobody can
// forge one for someone else's alert. It never expires: an old email's link still works.
import crypto from 'node:crypto'
import type { Config } from '#server/config'
import { resolveAuthSecret } from '#server/lib/auth'

export type UnsubscribeTarget =
  | { kind: 'search'; searchId: string }
  | { kind: 'favourites'; userId: string }
  | { kind: 'digest'; userId: string }

const LETTER = { search: 's', favourites: 'f', digest: 'd' } as const
const KIND = { s: 'search', f: 'favourites', d: 'digest' } as const
const ID = /^[A-Za-z0-9-]{1,64}$/

const keys = new WeakMap<Config, Buffer>()
function keyOf(config: Config): Buffer {
  let key = keys.get(config)
  if (!key) {
    key = crypto.createHmac('sha256', resolveAuthSecret(config)).update('unsubscribe-v1').digest()
    keys.set(config, key)
  }
  return key
}

const signature = (config: Config, body: string) =>
  crypto.createHmac('sha256', keyOf(config)).update(body).digest('base64url').slice(0, 32)

export function unsubscribeToken(config: Config, target: UnsubscribeTarget): string {
  const body = `${LETTER[target.kind]}.${target.kind === 'search' ? target.searchId : target.userId}`
  return `${body}.${signature(config, body)}`
}

/** The target a token names, or null when it is malformed or its signature does not match. */
export function readUnsubscribeToken(config: Config, token: string): UnsubscribeTarget | null {
  const [letter, id, sig, ...rest] = token.split('.')
  if (rest.length > 0 || !letter || !id || !sig || !(letter in KIND) || !ID.test(id)) return null
  const expected = Buffer.from(signature(config, `${letter}.${id}`))
  const given = Buffer.from(sig)
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null
  const kind = KIND[letter as keyof typeof KIND]
  return kind === 'search' ? { kind, searchId: id } : { kind, userId: id }
}
