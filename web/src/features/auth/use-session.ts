import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { Me, SessionAnswer } from '#contract/users'
import { api } from '../../lib/api-client'
import { useAnswer, useAnswerCache, useNavigate } from '../../lib/bindings'
import { sessionKeys } from '../../lib/query-keys'

/** Invalidate this key after anything that changes who is signed in (sign-in, signup, sign-out). */
export const SESSION_QUERY_KEY = sessionKeys.me()

/** GET /api/session: the signed-in user, or null for a visitor (a 200 either way, so a visit logs no error). */
export async function fetchSession(signal?: AbortSignal): Promise<Me | null> {
  return (await api.get<SessionAnswer>('/session', undefined, signal)).user
}

export type Session = { user: Me | null; isLoading: boolean }

export function useSession(): Session {
  const query = useAnswer({
    queryKey: SESSION_QUERY_KEY,
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: 60_000,
    // One retry, not the default backoff: the navbar and protected pages wait on this answer.
    retry: 1,
  })
  // The server renders without knowing who asks. While a page hydrates, the session reads as the server rendered
  // it, even when /api/session has answered meanwhile: a different render would make React throw the server's HTML away,
  // and with it a button clicked before the page was live (src/boot.ts). Once live, React compares what this reads
  // with what it read while hydrating and, where they differ, draws every reader again at once, in one task that
  // blocks the page. So it reads "known" only once the session has answered: still unknown when the page goes live
  // (the question is asked from the page's effects), it reads as it did and nothing is drawn again until the answer.
  const isKnown = useSyncExternalStore(
    subscribeToNothing,
    () => !query.isPending,
    () => false,
  )
  if (!isKnown) return { user: null, isLoading: true }
  return { user: query.data ?? null, isLoading: query.isPending }
}

const subscribeToNothing = () => () => {}

/**
 * For a button whose click depends on who is signed in. A click while the session is still being read is kept
 * and handled once it is known (the page may answer clicks before then: it hydrates while /api/session is asked).
 */
export function useOnceSessionKnown(isLoading: boolean, handler: () => unknown): () => void {
  const latest = useRef(handler)
  latest.current = handler
  const [isQueued, setIsQueued] = useState(false)
  useEffect(() => {
    if (!isQueued || isLoading) return
    setIsQueued(false)
    void latest.current()
  }, [isQueued, isLoading])
  return () => {
    if (isLoading) setIsQueued(true)
    else void latest.current()
  }
}

/**
 * Ends the session on the server, forgets every cached answer (they were someone's), goes home. A plain
 * function rather than useMutation: the navbar is on the home page, whose JS budget is tight.
 */
export function useSignOut(): { signOut: () => Promise<void>; isPending: boolean } {
  const queryClient = useAnswerCache()
  const navigate = useNavigate()
  const [isPending, setIsPending] = useState(false)
  async function signOut() {
    setIsPending(true)
    try {
      await api.post<unknown>('/auth/sign-out', {})
    } catch {
      // Even when the server cannot be reached, this browser forgets the user below.
    } finally {
      setIsPending(false)
      queryClient.clear()
      queryClient.setQueryData(SESSION_QUERY_KEY, null)
      navigate('/')
    }
  }
  return { signOut, isPending }
}
