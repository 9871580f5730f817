import { useSyncExternalStore } from 'react'

/**
 * Every toast goes through here: react-hot-toast loads with the first one, so no page downloads or runs it
 * before it is needed. The toaster (app/toaster.tsx) shows what its store holds once it mounts.
 */
const load = () => import('react-hot-toast')

// A toast's time on screen counts from when it is raised, so it is raised once the toaster is there to show it:
// the first one would otherwise spend its two seconds while the toaster's code loads.
let markToasterMounted: () => void = () => undefined
const toasterMounted = new Promise<void>((resolve) => {
  markToasterMounted = resolve
})

/** Called by the toaster (app/toaster.tsx) once it has mounted. */
export function onToasterMounted(): void {
  markToasterMounted()
}

const raise = (show: (api: Awaited<ReturnType<typeof load>>['toast']) => void) => {
  request()
  void Promise.all([load(), toasterMounted]).then(([{ toast }]) => show(toast))
}

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
    raise((api) => api.success(message))
  },
  error(message: string) {
    raise((api) => api.error(message))
  },
}
