import type { ReactNode } from 'react'
import { Link, Navigate, useLocation } from 'react-router'
import { paths } from '#contract/pages'
import type { Role } from '#contract/users'
import { Alert } from '../../components/ui/alert'
import { buttonClasses } from '../../components/ui/button'
import { Spinner } from '../../components/ui/spinner'
import { loginPathFrom } from './login-path'
import { useSession } from './use-session'

/**
 * Shows its children only to a signed-in user (with one of `roles`, when given). The server refuses the
 * data anyway; this only spares people a page that cannot work for them.
 */
export function RequireAuth({ roles, children }: { roles?: readonly Role[]; children: ReactNode }) {
  const { user, isLoading } = useSession()
  const location = useLocation()

  if (isLoading) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner label="Loading" />
      </div>
    )
  }
  if (!user) {
    return <Navigate to={loginPathFrom(`${location.pathname}${location.search}`)} replace />
  }
  if (roles && !roles.includes(user.role)) {
    // A buyer may sell from the same account: the way forward, not a dead end.
    if (roles.includes('seller') && user.role === 'buyer') {
      return (
        <Alert title="Start selling to use this page" className="mx-auto max-w-xl">
          <p>
            This page is for seller accounts. You can sell from this account too: give a phone number buyers
            can reach you on and accept the seller terms. Your orders and messages stay as they are.
          </p>
          <Link to={paths.startSelling()} className={buttonClasses('primary', 'md')}>
            Start selling
          </Link>
        </Alert>
      )
    }
    return (
      <Alert title="You don't have access to this page" className="mx-auto max-w-xl">
        <p>
          This page is for {roles.join(' or ')} accounts. You are signed in as{' '}
          {user.role === 'admin' ? 'an' : 'a'} {user.role}.
        </p>
        <Link to="/dashboard" className={buttonClasses('secondary', 'md')}>
          Back to the dashboard
        </Link>
      </Alert>
    )
  }
  return <>{children}</>
}
