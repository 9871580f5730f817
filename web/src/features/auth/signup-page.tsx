import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { paths } from '#contract/pages'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { errorMessage, isApiError } from '../../lib/api-client'
import { passwordRefusal, usePasswordAdvice } from '../../lib/password-rule'
import { toast } from '../../lib/toast'
import { createOwnRecord, signUpWithEmail } from './auth-api'
import { AuthCard, FormError, OrDivider } from './auth-card'
import { SignupForm } from './auth-schemas'
import { GoogleButton } from './google-button'
import { useFinishSignIn, useReturnPath } from './use-finish-sign-in'

/**
 * `/signup`: name, email, password and role (buyer first); the new account is signed in at once and sees that a
 * confirmation link was sent.
 */
export function SignupPage() {
  const returnTo = useReturnPath()
  const finishSignIn = useFinishSignIn()
  const [formError, setFormError] = useState<string | null>(null)
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignupForm>({
    resolver: zodResolver(SignupForm),
    defaultValues: { name: '', email: '', password: '', role: 'buyer' },
  })
  const [name, email, password] = watch(['name', 'email', 'password'])
  const advice = usePasswordAdvice(password, { name, email })

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null)
    const refusal = await passwordRefusal(values.password, values)
    if (refusal) {
      setError('password', { message: refusal }, { shouldFocus: true })
      return
    }
    try {
      await signUpWithEmail(values)
    } catch (err) {
      setFormError(errorMessage(err, 'Sign-up failed. Please try again.'))
      return
    }
    try {
      // The account and its record are already made together; this is the seed's call, kept idempotent.
      await createOwnRecord(values)
    } catch (err) {
      if (isApiError(err)) toast.error(err.message)
    }
    toast.success('User Created Successfully')
    // A new account first hears that a confirmation link is on its way, then goes on to where it was going.
    await finishSignIn(paths.welcome(returnTo))
  })

  const loginLink = returnTo === '/' ? '/login' : `/login?from=${encodeURIComponent(returnTo)}`

  return (
    <>
      <title>Sign Up · Laptop Market</title>
      <AuthCard
        title="Sign Up"
        footer={
          <>
            Already have an account?{' '}
            <Link to={loginLink} className="font-semibold text-accent hover:underline">
              Please Login
            </Link>
          </>
        }
      >
        <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Sign Up">
          <FormField label="Name" error={errors.name?.message}>
            <input {...register('name')} type="text" autoComplete="name" />
          </FormField>
          <FormField label="Email Address" error={errors.email?.message}>
            <input {...register('email')} type="email" autoComplete="email" />
          </FormField>
          <FormField label="Password" error={errors.password?.message ?? advice ?? undefined}>
            <input {...register('password')} type="password" autoComplete="new-password" />
          </FormField>
          <FormField label="Role" error={errors.role?.message}>
            <select {...register('role')}>
              <option value="buyer">buyer</option>
              <option value="seller">seller</option>
            </select>
          </FormField>
          <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
            {isSubmitting ? 'Creating your account…' : 'Sign Up'}
          </Button>
          <FormError message={formError} />
        </form>
        <OrDivider />
        <GoogleButton returnTo={returnTo} onError={setFormError} />
      </AuthCard>
    </>
  )
}
