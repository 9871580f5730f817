import { useQueryClient } from '@tanstack/react-query'
import { useNavigate, useSearchParams } from 'react-router'
import { safeReturnPath } from './auth-api'
import { fetchSession, SESSION_QUERY_KEY } from './use-session'

/** The page to return to after sign-in (`?from=`), checked to stay on this site. */
export function useReturnPath(): string {
  const [params] = useSearchParams()
  return safeReturnPath(params.get('from'))
}

/**
 * After a sign-in or signup: forget what was cached for the previous visitor, load the new session before
 * moving on (so the protected page does not bounce back to /login), then go to `returnTo`.
 */
export function useFinishSignIn() {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  return async (returnTo: string) => {
    queryClient.clear()
    await queryClient.fetchQuery({
      queryKey: SESSION_QUERY_KEY,
      queryFn: ({ signal }) => fetchSession(signal),
    })
    navigate(returnTo, { replace: true })
  }
}
