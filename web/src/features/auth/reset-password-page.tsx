import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { paths } from '#contract/pages'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { errorMessage, isApiError } from '../../lib/api-client'
import { passwordRefusal, usePasswordAdvice } from '../../lib/password-rule'
import { toast } from '../../lib/toast'
import { resetPassword } from './auth-api'
import { AuthCard, FormError } from './auth-card'
import { ResetPasswordForm } from './auth-schemas'

const EXPIRED =
  'This reset link has expired or was already used. Ask for a new one and use the latest email we send.'

/** `/reset-password?token=`: the page the emailed link opens; sets a new password and signs out everywhere. */
export function ResetPasswordPage() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const navigate = useNavigate()
  const [formError, setFormError] = useState<string | null>(token ? null : EXPIRED)
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(ResetPasswordForm),
    defaultValues: { password: '', confirm: '' },
  })
  // The page does not know whose link it is: the server also refuses a password built from the name or email.
  const advice = usePasswordAdvice(watch('password'), {})

  const onSubmit = handleSubmit(async ({ password }) => {
    setFormError(null)
    const refusal = await passwordRefusal(password, {})
    if (refusal) {
      setError('password', { message: refusal }, { shouldFocus: true })
      return
    }
    try {
      await resetPassword(token, password)
    } catch (err) {
      const invalid = isApiError(err) && /token/i.test(err.message)
      setFormError(invalid ? EXPIRED : errorMessage(err, 'Could not change the password. Please try again.'))
      return
    }
    toast.success('Password changed. Sign in with your new password.')
    navigate(paths.login(), { replace: true })
  })

  return (
    <>
      <title>Choose a new password · Laptop Market</title>
      <AuthCard
        title="Choose a new password"
        footer={
          <>
            Link not working?{' '}
            <Link to={paths.forgotPassword()} className="font-semibold text-accent hover:underline">
              Ask for a new one
            </Link>
          </>
        }
      >
        <form noValidate onSubmit={onSubmit} className="space-y-4" aria-label="Choose a new password">
          <p className="text-slate-700 text-sm">
            When you save it, every device signed in to your account is signed out.
          </p>
          <FormField label="New password" error={errors.password?.message ?? advice ?? undefined}>
            <input {...register('password')} type="password" autoComplete="new-password" />
          </FormField>
          <FormField label="New password again" error={errors.confirm?.message}>
            <input {...register('confirm')} type="password" autoComplete="new-password" />
          </FormField>
          <Button type="submit" size="lg" className="w-full" disabled={isSubmitting || !token}>
            {isSubmitting ? 'Saving…' : 'Save new password'}
          </Button>
          <FormError message={formError} />
        </form>
      </AuthCard>
    </>
  )
}
