import { setTimeout as sleep } from 'node:timers/promises'
import type { CounterStore } from '#server/lib/rate-limit'

/**
 * Password guesses, bounded without letting anyone lock an account's owner out:
 * - at most `perAccountAndAddress` failures per account from one client address per window (then 429),
 * - at most `perAddress` failures from one address across accounts per window (then 429),
 * - past `slowDownAfter` failures on an account from anywhere, every attempt on it waits, doubling up to
 *   `maxSlowDownMs`: slower, never locked, so the owner signing in from elsewhere still gets in.
 * Mutable so tests can shrink the numbers.
 */
export const SIGN_IN_LIMITS = {
  perAccountAndAddress: 10,
  perAddress: 50,
  slowDownAfter: 10,
  slowDownMs: 1000,
  maxSlowDownMs: 10_000,
  windowMs: 15 * 60 * 1000,
}

/** What is being guessed: a sign-in's password, or a signed-in user's own (verify or change password). */
export type GuessKind = 'signin' | 'password'

export type Outcome = 'failed' | 'succeeded' | 'other'

export type Reservation =
  | { blocked: true; retryAfterSeconds: number }
  | { blocked: false; settle(outcome: Outcome): Promise<void> }

export function createSignInLimiter(counters: CounterStore) {
  /**
   * Counts the attempt before it is tried, so that concurrent guesses cannot all pass the check before any
   * failure is recorded; `settle` gives the reservation back unless the attempt failed.
   */
  async function reserve(
    kind: GuessKind,
    account: string | undefined,
    address: string,
  ): Promise<Reservation> {
    const { windowMs } = SIGN_IN_LIMITS
    const pairKey = account ? `${kind}:acct-ip:${account}|${address}` : undefined
    const addressKey = `${kind}:ip:${address}`
    const accountKey = account ? `${kind}:acct:${account}` : undefined
    const [byPair, byAddress] = await Promise.all([
      pairKey ? counters.increment(pairKey, windowMs) : undefined,
      counters.increment(addressKey, windowMs),
    ])
    const release = () =>
      Promise.all([pairKey ? counters.decrement(pairKey) : undefined, counters.decrement(addressKey)])
    const blocking =
      byPair && byPair.count > SIGN_IN_LIMITS.perAccountAndAddress
        ? byPair
        : byAddress.count > SIGN_IN_LIMITS.perAddress
          ? byAddress
          : undefined
    if (blocking) {
      await release()
      return { blocked: true, retryAfterSeconds: Math.max(1, Math.ceil(blocking.resetMs / 1000)) }
    }
    if (accountKey) {
      const { count } = await counters.peek(accountKey)
      const over = count - SIGN_IN_LIMITS.slowDownAfter
      if (over >= 0) {
        await sleep(
          Math.min(SIGN_IN_LIMITS.slowDownMs * 2 ** Math.min(over, 16), SIGN_IN_LIMITS.maxSlowDownMs),
        )
      }
    }
    return {
      blocked: false,
      async settle(outcome) {
        if (outcome === 'failed') {
          if (accountKey) await counters.increment(accountKey, windowMs)
          return
        }
        await release()
        if (outcome === 'succeeded') {
          await Promise.all([
            pairKey ? counters.reset(pairKey) : undefined,
            accountKey ? counters.reset(accountKey) : undefined,
          ])
        }
      },
    }
  }
  return { reserve }
}

export type SignInLimiter = ReturnType<typeof createSignInLimiter>
