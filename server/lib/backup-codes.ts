import crypto from 'node:crypto'
import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { symmetricDecrypt } from 'better-auth/crypto'

/** A stored backup code: `h1:` and the HMAC-SHA256 of the code under the auth secret. */
const HASHED = 'h1:'
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'

/**
 * Backup codes as they are shown once: 20 characters from 57 (about 117 bits: above the 112 at which ASVS 6.5.2
 * takes a standard hash as a sound one-way store) in four groups of five, without the look-alikes 0/O, 1/l/I.
 */
export function generateBackupCode(): string {
  const chars = Array.from({ length: 20 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('')
  return chars.match(/.{5}/g)?.join('-') ?? chars
}

/**
 * Backup codes kept one way. Better Auth's two-factor plugin keeps the list through `encrypt`/`decrypt`; here
 * `encrypt` replaces every code not yet hashed by its hash and `decrypt` hands the hashes back, and a before
 * hook hashes the code a person types before the plugin compares it, so the plugin finds, strikes out and
 * stores hashes only. Nothing can show a code again (the person saw them once, when they were made). A typed
 * hash is hashed again, so a copy of the table signs no one in. Lists stored encrypted before this are
 * decrypted once and hashed.
 */
export function hashedBackupCodes(secret: string) {
  const hash = (code: string) =>
    HASHED + crypto.createHmac('sha256', secret).update(`backup-code:${code.trim()}`).digest('base64url')
  const storeBackupCodes = {
    encrypt: async (json: string) => {
      const codes = JSON.parse(json) as string[]
      return JSON.stringify(codes.map((code) => (code.startsWith(HASHED) ? code : hash(code))))
    },
    decrypt: async (stored: string) => {
      if (stored.startsWith('[')) return stored
      try {
        const legacy = JSON.parse(await symmetricDecrypt({ key: secret, data: stored })) as string[]
        return JSON.stringify(legacy.map(hash))
      } catch {
        return '[]'
      }
    },
  }
  const plugin: BetterAuthPlugin = {
    id: 'hashed-backup-codes',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/two-factor/verify-backup-code',
          handler: createAuthMiddleware(async (ctx) => {
            const body = (ctx.body ?? {}) as { code?: unknown }
            if (typeof body.code !== 'string') return
            return { context: { body: { ...body, code: hash(body.code) } } }
          }),
        },
      ],
    },
  }
  return { hash, storeBackupCodes, plugin }
}
