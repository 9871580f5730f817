import type { Database } from './client'

/**
 * How often whoever listens still polls while notifications come: they bring every change, and the poll is left to
 * catch what a lost connection missed (the search feed read its version 40 times a second per instance for nothing).
 */
const LISTENING_POLL_MS = 1_000

/**
 * Listens on `channel` (`Database.listen`) and tells whether notifications are coming, as far as this process knows:
 * from the first LISTEN until the connection is lost, and again from the first notification after (the connection is
 * opened again on its own, without a word). A LISTEN that failed before it was first answered is not listening either.
 * Whoever polls for what the notifications bring waits `pace(pollMs)` between polls: LISTENING_POLL_MS while
 * listening, its own `pollMs` otherwise (the search feed, the public cache).
 */
export function listenFor(
  listen: Database['listen'],
  channel: string,
  onNotify: (payload: string) => void,
  onTrouble: (err: unknown, lost: boolean) => void,
): { listening: () => boolean; pace: (pollMs: number) => number; stop: () => void } {
  let listening = false
  let lost = false
  let stopped = false
  let unlisten: (() => void) | undefined
  void listen(
    channel,
    (payload) => {
      listening = true
      if (!stopped) onNotify(payload)
    },
    (err) => {
      listening = false
      lost = true
      onTrouble(err, true)
    },
  )
    .then((stop) => {
      listening = !lost
      if (stopped) stop()
      else unlisten = stop
    })
    .catch((err) => onTrouble(err, false))
  return {
    listening: () => listening,
    pace: (pollMs) => (listening ? Math.max(pollMs, LISTENING_POLL_MS) : pollMs),
    stop: () => {
      stopped = true
      unlisten?.()
    },
  }
}
