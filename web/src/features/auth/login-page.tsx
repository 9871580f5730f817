import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useSearchParams } from 'react-router'
import { paths } from '#contract/pages'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { errorMessage } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { signInWithEmail } from './auth-api'
import { AuthCard, FormError, OrDivider } from './auth-card'
import { LoginForm } from './auth-schemas'
import { GoogleButton } from './google-button'
import { useFinishSignIn, useReturnPath } from './use-finish-sign-in'

/** Better Auth's `?error=` codes after a failed Google round trip, in plain words. */
function describeOAuthError(code: string): string {
  if (code === 'ACCOUNT_DISABLED' || /disabled/i.test(code)) return 'This account has been disabled'
  if (/access_denied/i.test(code)) return 'Google sign-in was cancelled'
  return 'Google sign-in failed. Please try again or sign in with your email and password.'
}

/** `/login`: email and password, or Google; afterwards back to `?from=` (home when there is none). */
export function LoginPage() {
  const returnTo = useReturnPath()
  const [params] = useSearchParams()
  const oauthError = params.get('error')
  const finishSignIn = useFinishSignIn()
  const [formError, setFormError] = useState<string | null>(
    oauthError ? describeOAuthError(oauthError) : null,
  )
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({ resolver: zodResolver(LoginForm), defaultValues: { email: '', password: '' } })

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null)
    try {
      await signInWithEmail(values)
    } catch (err) {
      setFormError(errorMessage(err, 'Sign-in failed. Please try again.'))
      return
    }
    toast.success('User Login Successfully')
    await finishSignIn(returnTo)
  })

  const signupLink = returnTo === '/' ? '/signup' : `/signup?from=${encodeURIComponent(returnTo)}`

  return (
    <>
      <title>Login · Laptop Market</title>
      <AuthCard
        title="Login"
        footer={
          <>
            New to Laptop Market?{' '}
            <Link to={signupLink} className="font-semibold text-accent hover:underline">
              Create new account
            </Link>
          </>
        }
      >
        <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Login">
          <FormField label="Email Address" error={errors.email?.message}>
            <input {...register('email')} type="email" autoComplete="email" />
          </FormField>
          <FormField label="Password" error={errors.password?.message}>
            <input {...register('password')} type="password" autoComplete="current-password" />
          </FormField>
          <p className="-mt-2 text-right text-sm">
            <Link to={paths.forgotPassword()} className="font-semibold text-accent hover:underline">
              Forgot password?
            </Link>
          </p>
          <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
            {isSubmitting ? 'Signing in…' : 'Login'}
          </Button>
          <FormError message={formError} />
        </form>
        <OrDivider />
        <GoogleButton returnTo={returnTo} onError={setFormError} />
      </AuthCard>
    </>
  )
}
