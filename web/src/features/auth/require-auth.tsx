import type { ReactNode } from 'react'
import { Link, Navigate, useLocation } from 'react-router'
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
