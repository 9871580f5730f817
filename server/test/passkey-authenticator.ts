// A software passkey for API tests: what a phone or a laptop's fingerprint reader answers to the browser's
// navigator.credentials.create() and .get(), made with node:crypto (ES256, "none" attestation).

import crypto from 'node:crypto'
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers'
import type { AppInstance } from '#server/app'
import { mergeCookies, postAuth } from './auth-helpers'

type RegistrationOptions = { challenge: string; rp: { id?: string }; user: { id: string } }
type AuthenticationOptions = { challenge: string; rpId?: string }

const FLAG_USER_PRESENT = 0x01
const FLAG_USER_VERIFIED = 0x04
const FLAG_ATTESTED = 0x40

const b64url = (bytes: Uint8Array | Buffer) => isoBase64URL.fromBuffer(new Uint8Array(bytes))
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest()

function counterBytes(counter: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(counter)
  return b
}

export class SoftPasskey {
  readonly credentialId = crypto.randomBytes(16)
  private readonly keys = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
  private counter = 0
  private userHandle = ''

  /** `verified`: whether the device checked the person (fingerprint, face or PIN). */
  constructor(
    /** The page's origin, as the browser writes it into what the passkey signs. */
    public origin: string,
    public verified = true,
  ) {}

  get id(): string {
    return b64url(this.credentialId)
  }

  private flags(extra = 0): number {
    return FLAG_USER_PRESENT | (this.verified ? FLAG_USER_VERIFIED : 0) | extra
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }))
  }

  /** The browser's answer to the registration options, as @simplewebauthn/browser sends it. */
  register(options: RegistrationOptions) {
    const rpId = options.rp.id ?? new URL(this.origin).hostname
    this.userHandle = options.user.id
    const jwk = this.keys.publicKey.export({ format: 'jwk' })
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(jwk.x ?? '')],
      [-3, isoBase64URL.toBuffer(jwk.y ?? '')],
    ])
    const idLength = Buffer.alloc(2)
    idLength.writeUInt16BE(this.credentialId.length)
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(FLAG_ATTESTED)]),
      counterBytes(this.counter),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      Buffer.from(isoCBOR.encode(coseKey)),
    ])
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    )
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }

  /** The browser's answer to the sign-in options: a signature over the challenge with the private key. */
  authenticate(options: AuthenticationOptions) {
    const rpId = options.rpId ?? new URL(this.origin).hostname
    this.counter += 1
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags()]), counterBytes(this.counter)])
    const clientDataJSON = this.clientData('webauthn.get', options.challenge)
    const signature = crypto.sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      this.keys.privateKey,
    )
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    }
  }
}

/** Adds `key` as a passkey on a signed-in device, as the Security page does; the raw answer of the verify step. */
export async function addPasskey(app: AppInstance, cookie: string, key: SoftPasskey, name = 'My laptop') {
  const options = await app.inject({
    method: 'GET',
    url: '/api/auth/passkey/generate-register-options',
    headers: { cookie },
  })
  if (options.statusCode !== 200) throw new Error(`passkey options: ${options.statusCode} ${options.body}`)
  return postAuth(app, '/passkey/verify-registration', mergeCookies(cookie, options), {
    response: key.register(options.json()),
    name,
  })
}
