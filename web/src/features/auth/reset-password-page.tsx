import { zodResolver } from '@hookform/resolvers/zod'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { paths } from '#contract/pages'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { errorMessage, isApiError } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { passwordRefusal, usePasswordAdvice } from '../../lib/password-rule'
import { toast } from '../../lib/toast'
import { findResetPasskeys, resetPassword } from './auth-api'
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
  // Passkeys added in the last 7 days sign in without the password: one someone else added would outlive the
  // reset. Each is ticked for removal; the person unticks the ones they added themselves.
  const recent = useQuery({
    queryKey: ['reset-passkeys', token],
    queryFn: () => findResetPasskeys(token),
    enabled: token !== '',
    retry: false,
  })
  const [kept, setKept] = useState<ReadonlySet<string>>(new Set())
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
      const remove = (recent.data?.items ?? []).map((p) => p.id).filter((id) => !kept.has(id))
      await resetPassword(token, password, remove)
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
          {recent.data && recent.data.items.length > 0 ? (
            <fieldset className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-3">
              <legend className="px-1 font-semibold text-slate-900 text-sm">
                Passkeys added in the last 7 days
              </legend>
              <p className="text-slate-700 text-sm">
                A passkey signs in without the password. Remove any you did not add yourself; a ticked one is
                removed when you save.
              </p>
              {recent.data.items.map((p) => (
                <label key={p.id} className="flex items-start gap-2 text-slate-900 text-sm">
                  <input
                    type="checkbox"
                    className="mt-0.5 size-4"
                    checked={!kept.has(p.id)}
                    onChange={(e) => {
                      const next = new Set(kept)
                      if (e.target.checked) next.delete(p.id)
                      else next.add(p.id)
                      setKept(next)
                    }}
                  />
                  <span>
                    Remove “{p.name || 'Unnamed passkey'}”, added {formatDate(p.created_at)}
                  </span>
                </label>
              ))}
            </fieldset>
          ) : null}
          <Button type="submit" size="lg" className="w-full" disabled={isSubmitting || !token}>
            {isSubmitting ? 'Saving…' : 'Save new password'}
          </Button>
          <FormError message={formError} />
        </form>
      </AuthCard>
    </>
  )
}
