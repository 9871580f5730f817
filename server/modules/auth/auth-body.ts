import { hasControlCharacter } from '#server/lib/control-characters'
import { AppError } from '#server/lib/errors'

/** Fields that are hashed, never stored or shown as they are: any character is theirs to choose. */
const SECRET_FIELDS = new Set(['password', 'newPassword', 'currentPassword'])
/** Fields that name one account or secret: sent twice, the limiter and the auth library could read different ones. */
const SINGLE_FIELDS = ['email', 'password']

export type AuthBody =
  | { kind: 'none' }
  | { kind: 'opaque' }
  | { kind: 'json' | 'form'; fields: Record<string, unknown> }

/** Every key of a JSON text at any depth, in order (a string followed by a colon is a key). */
function jsonKeys(text: string): string[] {
  const keys: string[] = []
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"\s*(:)?/g)) {
    if (!m[2]) continue
    try {
      keys.push(JSON.parse(`"${m[1]}"`) as string)
    } catch {}
  }
  return keys
}

function refuseRepeats(keys: string[]) {
  for (const name of SINGLE_FIELDS) {
    if (keys.filter((k) => k === name).length > 1) {
      throw new AppError('VALIDATION', `Send ${name} once`, { [name]: `Send ${name} once` })
    }
  }
}

function refuseControlCharacters(value: unknown, path: string) {
  if (typeof value === 'string') {
    if (!SECRET_FIELDS.has(path) && hasControlCharacter(value)) {
      const message = `The ${path} must not contain control characters`
      throw new AppError('VALIDATION', message, { [path]: message })
    }
  } else if (Array.isArray(value)) {
    for (const item of value) refuseControlCharacters(item, path)
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) refuseControlCharacters(item, key)
  }
}

/**
 * Reads an auth request's body the way the auth library will (JSON, URL-encoded or multipart form), and
 * refuses what it must not see: `email` or `password` given twice, or control characters outside the
 * password fields (the database cannot store a NUL, and no name or token holds one).
 */
export async function readAuthBody(request: Request): Promise<AuthBody> {
  if (request.method !== 'POST' || !request.body) return { kind: 'none' }
  const type = (request.headers.get('content-type') ?? '').toLowerCase()
  if (/^application\/([a-z0-9.+-]*\+)?json/.test(type)) {
    const text = await request.clone().text()
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      return { kind: 'opaque' }
    }
    refuseRepeats(jsonKeys(text))
    refuseControlCharacters(parsed, 'body')
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? { kind: 'json', fields: parsed as Record<string, unknown> }
      : { kind: 'opaque' }
  }
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    let form: FormData
    try {
      form = await request.clone().formData()
    } catch {
      return { kind: 'opaque' }
    }
    refuseRepeats([...form.keys()])
    const fields: Record<string, unknown> = {}
    for (const [key, value] of form) fields[key] = typeof value === 'string' ? value : ''
    refuseControlCharacters(fields, 'body')
    return { kind: 'form', fields }
  }
  return { kind: 'opaque' }
}

/** The email a sign-in names, as it is counted against the account. */
export function normalisedEmail(fields: Record<string, unknown>): string | undefined {
  const email = fields.email
  return typeof email === 'string' ? email.trim().toLowerCase().slice(0, 254) : undefined
}
