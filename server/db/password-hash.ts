// Password hashes, the stored form of a password (accounts.password): scrypt on libuv's threads, as the auth library
// makes them (its `salt:key` in hex, N = 16,384, r = 16, p = 1, a 64-byte key, the password in NFKC), so every hash it
// made before reads the same. Every way a password is hashed or checked comes here: the auth library's sign-up, reset,
// change and sign-in (lib/auth.ts), step-up, the admin command, the demo seed and the test factories.
//
// The cost is the library's in every instance. The test suites lower it (server/test/setup.ts): a hash there took
// 140 ms of a core, and a run made about a thousand. A hash made at another cost says so in front (`N$salt:key`), so
// any hash is read at the cost it was made with, whatever this process's.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'

const LIBRARY_COST = 16_384
const R = 16
const KEY_BYTES = 64

let cost = LIBRARY_COST

/** scrypt's cost is a power of two, 2 or more. */
const isCost = (n: number) => n >= 2 && Number.isInteger(Math.log2(n))

/** The cost of the hashes this process makes from now on (a power of two); the tests' setup alone calls it. */
export function setPasswordHashCost(n: number) {
  if (!isCost(n)) throw new Error(`scrypt's cost must be a power of two: ${n}`)
  cost = n
}

function derive(password: string, salt: string, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_BYTES,
      { N: n, r: R, p: 1, maxmem: 256 * n * R },
      (err, key) => (err ? reject(err) : resolve(key)),
    )
  })
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16).toString('hex')
  const key = (await derive(password, salt, cost)).toString('hex')
  return cost === LIBRARY_COST ? `${salt}:${key}` : `${cost}$${salt}:${key}`
}

export async function verifyPassword({
  hash,
  password,
}: {
  hash: string
  password: string
}): Promise<boolean> {
  const at = hash.indexOf('$')
  const n = at < 0 ? LIBRARY_COST : Number(hash.slice(0, at))
  const [salt, key] = hash.slice(at + 1).split(':')
  if (!salt || !key || !isCost(n)) throw new Error('Invalid password hash')
  const expected = Buffer.from(key, 'hex')
  const derived = await derive(password, salt, n)
  return expected.length === derived.length && timingSafeEqual(expected, derived)
}
