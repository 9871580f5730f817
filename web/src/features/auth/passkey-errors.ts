import { errorMessage } from '../../lib/api-client'

/** What went wrong with the browser's passkey prompt, in plain words (it names its errors, not reasons). */
export function passkeyErrorMessage(err: unknown, fallback: string): string {
  const name = (err as { name?: unknown } | null)?.name
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return 'The passkey prompt was closed or timed out. Please try again.'
  }
  if (name === 'InvalidStateError') return 'This device already has a passkey for your account.'
  if (name === 'SecurityError') {
    return 'Passkeys work only when the site is opened at its own address. Please reload and try again.'
  }
  return errorMessage(err, fallback)
}
