// The code an authenticator app shows, computed as the app does (6 digits every 30 s). No server or test-runner
// code is imported here, so the API tests and the browser journeys in e2e/ share it.
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'

/**
 * What an authenticator app set up with `key` (base32, as the otpauth URI carries it or as a person types it,
 * spaces allowed) shows now, or `offset` periods of 30 s away.
 */
export async function authenticatorCode(key: string, offset = 0): Promise<string> {
  const secret = new TextDecoder().decode(base32.decode(key.replace(/\s/g, '')))
  const otp = createOTP(secret, { digits: 6, period: 30 })
  if (offset === 0) return otp.totp()
  return otp.hotp(Math.floor(Date.now() / 30_000) + offset)
}
