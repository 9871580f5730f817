import { zodResolver } from '@hookform/resolvers/zod'
import { KeyRound } from 'lucide-react'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useSearchParams } from 'react-router'
import { paths } from '#contract/pages'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { errorMessage } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { useBrands } from '../brands'
import { signInWithEmail, signInWithPasskey, verifySignInCode } from './auth-api'
import { AuthCard, FormError, OrDivider } from './auth-card'
import { LoginForm } from './auth-schemas'
import { GoogleButton } from './google-button'
import { passkeyErrorMessage } from './passkey-errors'
import { useFinishSignIn, useReturnPath } from './use-finish-sign-in'

/** Better Auth's `?error=` codes after a failed Google round trip, in plain words. */
function describeOAuthError(code: string): string {
  if (code === 'ACCOUNT_DISABLED' || /disabled/i.test(code)) return 'This account has been disabled'
  if (/access_denied/i.test(code)) return 'Google sign-in was cancelled'
  return 'Google sign-in failed. Please try again or sign in with your email and password.'
}

/** The second step when two-step sign-in is on: a code from the authenticator app, or a backup code. */
function CodeStep({ onDone }: { onDone: () => Promise<void> }) {
  const [backup, setBackup] = useState(false)
  const [code, setCode] = useState('')
  const [trustDevice, setTrustDevice] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const codeField = useRef<HTMLInputElement>(null)
  // The code field takes the keyboard as soon as the step shows (and when it switches to a backup code): a code
  // typed straight after the password goes where it belongs.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focuses again when the kind of code changes
  useEffect(() => codeField.current?.focus(), [backup])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!code.trim()) {
      setError(
        backup ? 'Enter one of your backup codes' : 'Enter the 6-digit code from your authenticator app',
      )
      return
    }
    setBusy(true)
    setError(null)
    try {
      await verifySignInCode({ code, backup, trustDevice })
    } catch (err) {
      setBusy(false)
      setError(errorMessage(err, 'That code did not work. Please try again.'))
      return
    }
    toast.success('User Login Successfully')
    await onDone()
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4" aria-label="Sign-in code">
      <p className="text-slate-700 text-sm">
        {backup
          ? 'Enter one of the backup codes you saved when you turned on two-step sign-in. Each works once.'
          : 'Open your authenticator app and enter the 6-digit code it shows for Laptop Market.'}
      </p>
      <FormField label={backup ? 'Backup code' : 'Code'} error={error ?? undefined}>
        <input
          ref={codeField}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          inputMode={backup ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          maxLength={backup ? 32 : 8}
        />
      </FormField>
      <label className="flex items-center gap-2 text-slate-700 text-sm">
        <input
          type="checkbox"
          className="size-5 accent-accent"
          checked={trustDevice}
          onChange={(e) => setTrustDevice(e.target.checked)}
        />
        Remember this device for 30 days
      </label>
      <Button type="submit" size="lg" className="w-full" disabled={busy}>
        {busy ? 'Checking…' : 'Verify'}
      </Button>
      <button
        type="button"
        className="w-full text-center font-semibold text-accent text-sm hover:underline"
        onClick={() => {
          setBackup((b) => !b)
          setCode('')
          setError(null)
        }}
      >
        {backup ? 'Use a code from the app instead' : 'Use a backup code instead'}
      </button>
    </form>
  )
}

/**
 * Why a visitor sent here from a protected page must log in: "Log in to see ASUS laptops" for a brand page,
 * a plainer line for any other page, nothing when they came to log in of their own accord.
 */
export function loginReason(returnTo: string, brandName: (id: string) => string | undefined): string | null {
  if (returnTo === '/') return null
  const brand = /^\/category\/([^/?#]+)/.exec(returnTo)
  if (brand?.[1]) {
    const name = brandName(decodeURIComponent(brand[1]))
    return name ? `Log in to see ${name} laptops.` : 'Log in to see the laptops of this brand.'
  }
  return 'Log in to continue to the page you opened.'
}

/** `/login`: email and password, or Google; afterwards back to `?from=` (home when there is none). */
export function LoginPage() {
  const returnTo = useReturnPath()
  const brands = useBrands()
  const reason = loginReason(returnTo, (id) => brands.data?.find((b) => b._id === id)?.brand_name)
  const [params] = useSearchParams()
  const oauthError = params.get('error')
  const finishSignIn = useFinishSignIn()
  // `?step=code`: Google said who it was, and two-step sign-in asks for the code next.
  const [needsCode, setNeedsCode] = useState(params.get('step') === 'code')
  const [passkeyBusy, setPasskeyBusy] = useState(false)
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
      const answer = await signInWithEmail(values)
      if (answer?.twoFactorRedirect) {
        setNeedsCode(true)
        return
      }
    } catch (err) {
      setFormError(errorMessage(err, 'Sign-in failed. Please try again.'))
      return
    }
    toast.success('User Login Successfully')
    await finishSignIn(returnTo)
  })

  const signInByPasskey = async () => {
    setFormError(null)
    setPasskeyBusy(true)
    try {
      await signInWithPasskey()
    } catch (err) {
      setPasskeyBusy(false)
      setFormError(passkeyErrorMessage(err, 'Passkey sign-in failed. Please try again.'))
      return
    }
    toast.success('User Login Successfully')
    await finishSignIn(returnTo)
  }

  const signupLink = returnTo === '/' ? '/signup' : `/signup?from=${encodeURIComponent(returnTo)}`

  return (
    <>
      <title>Login · Laptop Market</title>
      <AuthCard
        title="Login"
        lead={reason}
        footer={
          <>
            New to Laptop Market?{' '}
            <Link to={signupLink} className="font-semibold text-accent hover:underline">
              Create new account
            </Link>
          </>
        }
      >
        {needsCode ? (
          <CodeStep onDone={() => finishSignIn(returnTo)} />
        ) : (
          <>
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
            <div className="space-y-3">
              <button
                type="button"
                onClick={() => void signInByPasskey()}
                disabled={passkeyBusy}
                className="flex min-h-11 w-full items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-900 text-sm hover:border-slate-400 hover:bg-slate-50 disabled:cursor-not-allowed disabled:bg-slate-50"
              >
                <KeyRound aria-hidden="true" className="size-5 text-accent" />
                {passkeyBusy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
              </button>
              <GoogleButton returnTo={returnTo} onError={setFormError} />
            </div>
          </>
        )}
      </AuthCard>
    </>
  )
}
