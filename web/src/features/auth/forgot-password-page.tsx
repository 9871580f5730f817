import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { ACCOUNT_EMAIL_WINDOW_MINUTES, ACCOUNT_EMAILS_PER_WINDOW } from '#contract/email'
import { paths } from '#contract/pages'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { errorMessage } from '../../lib/api-client'
import { requestPasswordReset } from './auth-api'
import { AuthCard, FormError } from './auth-card'
import { ForgotPasswordForm } from './auth-schemas'

/** `/forgot-password`: asks for a reset link by email. The answer never says whether the address has an account. */
export function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [formError, setFormError] = useState<string | null>(null)
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordForm>({ resolver: zodResolver(ForgotPasswordForm), defaultValues: { email: '' } })

  const onSubmit = handleSubmit(async ({ email }) => {
    setFormError(null)
    try {
      await requestPasswordReset(email)
      setSentTo(email)
    } catch (err) {
      setFormError(errorMessage(err, 'Could not send the link. Please try again.'))
    }
  })

  return (
    <>
      <title>Forgot password · Laptop Market</title>
      <AuthCard
        title="Forgot password?"
        footer={
          <>
            Remembered it?{' '}
            <Link to={paths.login()} className="font-semibold text-accent hover:underline">
              Back to Login
            </Link>
          </>
        }
      >
        {sentTo ? (
          <div role="status" className="space-y-3 text-slate-700">
            <p className="font-semibold text-slate-900">Check your email</p>
            <p>
              If an account uses <span className="font-medium text-slate-900">{sentTo}</span>, we have sent it
              a link to choose a new password. The link works for one hour.
            </p>
            <p className="text-sm">
              To keep inboxes safe, we send at most {ACCOUNT_EMAILS_PER_WINDOW} reset emails to an address
              every {ACCOUNT_EMAIL_WINDOW_MINUTES} minutes, whoever asks. Nothing arrived after a few minutes?
              Look in your spam folder; if it is not there, wait {ACCOUNT_EMAIL_WINDOW_MINUTES} minutes, then{' '}
              <button
                type="button"
                className="font-semibold text-accent hover:underline"
                onClick={() => setSentTo(null)}
              >
                ask again
              </button>
              .
            </p>
          </div>
        ) : (
          <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Forgot password">
            <p className="text-slate-700 text-sm">
              Enter the email address of your account and we will send you a link to choose a new password.
            </p>
            <FormField label="Email Address" error={errors.email?.message}>
              <input {...register('email')} type="email" autoComplete="email" />
            </FormField>
            <Button type="submit" size="lg" className="w-full" disabled={isSubmitting}>
              {isSubmitting ? 'Sending…' : 'Send me a reset link'}
            </Button>
            <FormError message={formError} />
          </form>
        )}
      </AuthCard>
    </>
  )
}
