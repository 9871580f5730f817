// Two-step sign-in in tests: the current code of an authenticator app set up from the enrolment's otpauth URI.
import { base32 } from '@better-auth/utils/base32'
import { createOTP } from '@better-auth/utils/otp'

/** The authenticator's secret as the auth library keeps it, from the otpauth:// URI it handed out. */
export function secretOf(totpURI: string): string {
  const encoded = new URL(totpURI).searchParams.get('secret')
  if (!encoded) throw new Error(`no secret in ${totpURI}`)
  return new TextDecoder().decode(base32.decode(encoded))
}

/** What an authenticator app shows now (or `offset` periods of 30 s away). */
export async function currentCode(totpURI: string, offset = 0): Promise<string> {
  const otp = createOTP(secretOf(totpURI), { digits: 6, period: 30 })
  if (offset === 0) return otp.totp()
  return otp.hotp(Math.floor(Date.now() / 30_000) + offset)
}
