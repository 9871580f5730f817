import crypto from 'node:crypto'
import type { BetterAuthPlugin } from 'better-auth'
import { createAuthMiddleware } from 'better-auth/api'
import { symmetricDecrypt } from 'better-auth/crypto'

/** A stored backup code: `h2:` and the HMAC-SHA256 of the code, read the way a person may type it. */
const HASHED = 'h2:'
/** Codes made before they were read case-blind: `h1:` and the HMAC of the code exactly as shown. */
const HASHED_AS_SHOWN = 'h1:'
/** Capitals and digits without the look-alikes 0/O, 1/I (Crockford's choice): 32 characters, 5 bits each. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/**
 * Backup codes as they are shown once: 24 characters from 32 (120 bits: above the 112 at which ASVS 6.5.2 takes
 * a standard hash as a sound one-way store) in four groups of six, in capitals without look-alikes.
 */
export function generateBackupCode(): string {
  const chars = Array.from({ length: 24 }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('')
  return chars.match(/.{6}/g)?.join('-') ?? chars
}

/** A code as typed, read as shown: letter case, spaces and dashes do not matter. */
export function backupCodeAsShown(typed: string): string {
  return typed.replace(/[\s-]+/g, '').toUpperCase()
}

/**
 * Backup codes kept one way. Better Auth's two-factor plugin keeps the list through `encrypt`/`decrypt`; here
 * `encrypt` replaces every code not yet hashed by its hash and `decrypt` hands the hashes back, and a before
 * hook hashes the code a person types before the plugin compares it, so the plugin finds, strikes out and
 * stores hashes only. Nothing can show a code again (the person saw them once, when they were made). A typed
 * hash is hashed again, so a copy of the table signs no one in. A code is hashed as shown (capitals, no spaces
 * or dashes), so however it is typed it is found; lists stored encrypted before this are decrypted once and
 * hashed so too.
 */
export function hashedBackupCodes(secret: string) {
  const hmac = (text: string) =>
    crypto.createHmac('sha256', secret).update(`backup-code:${text}`).digest('base64url')
  const hash = (code: string) => HASHED + hmac(backupCodeAsShown(code))
  const hashAsShown = (code: string) => HASHED_AS_SHOWN + hmac(code.trim())
  const storeBackupCodes = {
    encrypt: async (json: string) => {
      const codes = JSON.parse(json) as string[]
      return JSON.stringify(
        codes.map((code) =>
          code.startsWith(HASHED) || code.startsWith(HASHED_AS_SHOWN) ? code : hash(code),
        ),
      )
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
            // A code made before codes were read case-blind is still stored as it was shown, letter case and all.
            const asShown = hashAsShown(body.code)
            const isOlderCode = await ctx.context.adapter.findOne({
              model: 'twoFactor',
              where: [{ field: 'backupCodes', operator: 'contains', value: `"${asShown}"` }],
            })
            return { context: { body: { ...body, code: isOlderCode ? asShown : hash(body.code) } } }
          }),
        },
      ],
    },
  }
  return { hash, storeBackupCodes, plugin }
}
