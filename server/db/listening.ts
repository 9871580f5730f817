import type { Database } from './client'

/**
 * Listens on `channel` (`Database.listen`) and tells whether notifications are coming, as far as this process knows:
 * from the first LISTEN until the connection is lost, and again from the first notification after (the connection is
 * opened again on its own, without a word). A LISTEN that failed before it was first answered is not listening either.
 * Whoever polls for what the notifications bring polls slowly while `listening()` (the search feed, the public cache).
 */
export function listenFor(
  listen: Database['listen'],
  channel: string,
  onNotify: (payload: string) => void,
  onTrouble: (err: unknown, lost: boolean) => void,
): { listening: () => boolean; stop: () => void } {
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
    stop: () => {
      stopped = true
      unlisten?.()
    },
  }
}
