import { useSyncExternalStore } from 'react'

/**
 * Every toast goes through here: react-hot-toast loads with the first one, so no page downloads or runs it
 * before it is needed. The toaster (app/toaster.tsx) shows what its store holds once it mounts.
 */
const load = () => import('react-hot-toast')

let isRequested = false
const listeners = new Set<() => void>()

function request() {
  if (isRequested) return
  isRequested = true
  for (const listener of listeners) listener()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** Whether a toast was raised here yet: the home page mounts the toaster only then. */
export function useToastRequested(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => isRequested,
    () => false,
  )
}

export const toast = {
  success(message: string) {
    request()
    void load().then(({ toast }) => toast.success(message))
  },
  error(message: string) {
    request()
    void load().then(({ toast }) => toast.error(message))
  },
}
