import { type MouseEvent, useEffect, useSyncExternalStore } from 'react'
import type {
  Answer,
  AnswerCache,
  AnswerKey,
  AnswerOptions,
  Bindings,
  LinkProps,
  NavLinkProps,
  Place,
} from '../lib/bindings'
import { useNavigate } from '../lib/bindings'

/** An answer as the home page keeps it: the data or the error, and whether it is being asked again. */
type Entry = {
  queryKey: AnswerKey
  data: unknown
  error: Error | null
  isFetching: boolean
  isStale: boolean
}

type Fetcher = (context: { signal: AbortSignal }) => Promise<unknown>

const hashKey = (queryKey: AnswerKey) => JSON.stringify(queryKey)

/**
 * The home page's cached answers: the ones the server rendered the page from, and the few the page asks for
 * itself (the session, the favourites, search suggestions). Handed to React Query when the full app takes over.
 */
export class AnswerStore {
  private entries = new Map<string, Entry>()
  private listeners = new Set<() => void>()
  private fetchers = new Map<string, Fetcher>()

  constructor(initial: { queryKey: AnswerKey; data?: unknown; error?: Error | null }[] = []) {
    for (const { queryKey, data, error } of initial)
      this.entries.set(hashKey(queryKey), {
        queryKey,
        data,
        error: error ?? null,
        isFetching: false,
        isStale: false,
      })
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  get(hash: string): Entry | undefined {
    return this.entries.get(hash)
  }

  /** Every answer with data, to fill the full app's cache. */
  answers(): { queryKey: AnswerKey; data: unknown }[] {
    return [...this.entries.values()].filter((e) => e.data !== undefined)
  }

  private put(hash: string, entry: Entry) {
    this.entries.set(hash, entry)
    for (const listener of this.listeners) listener()
  }

  setData(queryKey: AnswerKey, data: unknown) {
    this.put(hashKey(queryKey), { queryKey, data, error: null, isFetching: false, isStale: false })
  }

  clear() {
    this.entries.clear()
    for (const listener of this.listeners) listener()
  }

  invalidate(prefix: AnswerKey) {
    const head = hashKey(prefix).slice(0, -1)
    for (const [hash, entry] of this.entries) {
      if (hash.startsWith(head)) this.put(hash, { ...entry, isStale: true })
    }
    return Promise.all(
      [...this.entries.entries()]
        .filter(([hash]) => hash.startsWith(head) && this.fetchers.has(hash))
        .map(([hash, entry]) => this.fetch(entry.queryKey, this.fetchers.get(hash) as Fetcher, 0)),
    ).then(() => undefined)
  }

  async fetch(queryKey: AnswerKey, queryFn: Fetcher, retries: number): Promise<void> {
    const hash = hashKey(queryKey)
    this.fetchers.set(hash, queryFn)
    const before = this.entries.get(hash)
    if (before?.isFetching) return
    this.put(hash, {
      queryKey,
      data: before?.data,
      error: before?.error ?? null,
      isFetching: true,
      isStale: false,
    })
    for (let attempt = 0; ; attempt++) {
      try {
        const data = await queryFn({ signal: new AbortController().signal })
        this.put(hash, { queryKey, data, error: null, isFetching: false, isStale: false })
        return
      } catch (err) {
        if (attempt >= retries || (err as { status?: number }).status === 401) {
          const current = this.entries.get(hash)
          this.put(hash, {
            queryKey,
            data: current?.data,
            error: err as Error,
            isFetching: false,
            isStale: false,
          })
          return
        }
      }
    }
  }
}

function useStoreAnswer<T>(store: AnswerStore, options: AnswerOptions<T>): Answer<T> {
  const { queryKey, queryFn, enabled = true, retry = 0, refetchInterval } = options
  const hash = hashKey(queryKey)
  const entry = useSyncExternalStore(
    store.subscribe,
    () => store.get(hash),
    () => store.get(hash),
  )
  const retries = retry === true ? 3 : retry === false ? 0 : retry
  const needsFetch = enabled && (!entry || entry.isStale) && !entry?.isFetching
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again only when the key or the need changes
  useEffect(() => {
    if (needsFetch) void store.fetch(queryKey, queryFn as Fetcher, retries)
  }, [hash, needsFetch])
  // biome-ignore lint/correctness/useExhaustiveDependencies: the interval follows the key, not the function
  useEffect(() => {
    if (!enabled || !refetchInterval) return
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void store.fetch(queryKey, queryFn as Fetcher, 0)
    }, refetchInterval)
    return () => window.clearInterval(timer)
  }, [hash, enabled, refetchInterval])
  const common = {
    isFetching: entry?.isFetching ?? false,
    refetch: () => store.fetch(queryKey, queryFn as Fetcher, 0),
  }
  if (entry?.error)
    return {
      ...common,
      status: 'error',
      data: entry.data as T | undefined,
      error: entry.error,
      isPending: false,
      isError: true,
      isSuccess: false,
    }
  if (entry?.data === undefined)
    return {
      ...common,
      status: 'pending',
      data: undefined,
      error: null,
      isPending: true,
      isError: false,
      isSuccess: false,
    }
  return {
    ...common,
    status: 'success',
    data: entry.data as T,
    error: null,
    isPending: false,
    isError: false,
    isSuccess: true,
  }
}

/** A plain link; followed, the home page's `navigate` takes it (the full app loads in place). */
function Link({ to, onClick, ...rest }: LinkProps) {
  const navigate = useNavigate()
  return (
    <a
      {...rest}
      href={to}
      onClick={(event) => {
        onClick?.(event)
        if (!isPlainClick(event)) return
        event.preventDefault()
        navigate(to)
      }}
      data-discover="true"
    />
  )
}

/** A link marked as the current page the way react-router's NavLink marks it. */
function NavLink({ to, end, className, ...rest }: NavLinkProps) {
  const { pathname } = useHomeLocation()
  const isActive = end || to === '/' ? pathname === to : pathname === to || pathname.startsWith(`${to}/`)
  return (
    <Link
      {...rest}
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : className}
    />
  )
}

/** A click the page should handle itself: the main button, no modifier keys, no other target. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>) {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    (!event.currentTarget.target || event.currentTarget.target === '_self')
  )
}

const currentPlace = (): Place => ({
  pathname: window.location.pathname,
  search: window.location.search,
  hash: window.location.hash,
})

/**
 * The home page's bindings: plain links that, followed, hand the page to the full app (`leave`), which then
 * shows the new page without reloading; answers from `store`.
 */
export function homeBindings(store: AnswerStore, leave: (to: string) => void): Bindings {
  const navigate = (to: string) => {
    const url = new URL(to, window.location.href)
    if (url.origin !== window.location.origin) {
      window.location.assign(url.href)
      return
    }
    // Already here (Home, or signing out on the home page): nothing to load, as with the router.
    if (url.pathname === window.location.pathname && url.search === window.location.search && !url.hash)
      return
    leave(url.pathname + url.search + url.hash)
  }

  const cache: AnswerCache = {
    getQueryData: <T,>(queryKey: AnswerKey) => store.get(hashKey(queryKey))?.data as T | undefined,
    setQueryData: (queryKey, data) => store.setData(queryKey, data),
    invalidateQueries: ({ queryKey }) => store.invalidate(queryKey),
    clear: () => store.clear(),
  }

  return {
    Link,
    NavLink,
    useLocation: useHomeLocation,
    useNavigate: () => navigate,
    useAnswer: <T,>(options: AnswerOptions<T>) => useStoreAnswer(store, options),
    useAnswerCache: () => cache,
  }
}

const subscribeToPlace = (onChange: () => void) => {
  window.addEventListener('popstate', onChange)
  window.addEventListener('hashchange', onChange)
  return () => {
    window.removeEventListener('popstate', onChange)
    window.removeEventListener('hashchange', onChange)
  }
}

let lastPlace: Place | undefined
/** The address, read again when it changes (an in-page link), the same object while it does not. */
function readPlace(): Place {
  const place = currentPlace()
  if (
    !lastPlace ||
    lastPlace.pathname !== place.pathname ||
    lastPlace.search !== place.search ||
    lastPlace.hash !== place.hash
  )
    lastPlace = place
  return lastPlace
}

function useHomeLocation(): Place {
  // The home page runs only in the browser: hydrating, it reads the address the server rendered too.
  return useSyncExternalStore(subscribeToPlace, readPlace, readPlace)
}
