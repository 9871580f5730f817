import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useLocation } from 'react-router'
import type { NotMeLink, NotMeResult } from '#contract/account'
import { paths } from '#contract/pages'
import { Button, buttonClasses } from '../../components/ui/button'
import { Skeleton } from '../../components/ui/skeleton'
import { api, errorMessage } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { AuthCard, FormError } from './auth-card'

/** What the email was about, as a sentence. */
const CHANGE: Record<string, string> = {
  'two_step.enable': 'Two-step sign-in was turned on',
  'two_step.disable': 'Two-step sign-in was turned off',
  'passkey.add': 'A passkey was added',
  'password.change': 'The password was changed',
  'password.reset': 'The password was reset',
  'payout_account.change': 'The payout bank account was changed',
  'sign_in.new_device': 'A new device signed in',
}

function timeOf(iso: string): string {
  const at = new Date(iso)
  return `${formatDate(iso)}, ${at.toISOString().slice(11, 16)} UTC`
}

/**
 * `/account/not-me#<token>`: the "I did not do this" link of a security email, signed in or not. It asks
 * first (a mail scanner opening every link secures nobody's account by mistake), then signs out every device,
 * removes passkeys added in the last 7 days and sends the person on to choose a new password.
 */
export function NotMePage() {
  const { hash } = useLocation()
  const token = hash.replace(/^#/, '')
  const info = useQuery({
    queryKey: ['not-me', token],
    queryFn: () => api.post<NotMeLink>('/account/not-me/check', { token }),
    enabled: token !== '',
    retry: false,
  })
  const [sending, setSending] = useState(false)
  const [failed, setFailed] = useState<string | null>(null)
  const [result, setResult] = useState<NotMeResult | null>(null)

  async function secure() {
    setSending(true)
    setFailed(null)
    try {
      setResult(await api.post<NotMeResult>('/account/not-me', { token }))
    } catch (err) {
      setFailed(errorMessage(err, 'Could not secure your account. Please try again.'))
    } finally {
      setSending(false)
    }
  }

  const forgot = (
    <>
      Something else wrong?{' '}
      <Link to={paths.forgotPassword()} className="font-semibold text-accent hover:underline">
        Reset your password
      </Link>
    </>
  )

  if (result) {
    return (
      <>
        <title>Your account is secured · Laptop Market</title>
        <AuthCard title="Your account is secured" footer={forgot}>
          <ul className="list-disc space-y-2 pl-5 text-slate-700">
            <li>Every device signed in to your account was signed out.</li>
            <li>
              {result.passkeys_removed === 0
                ? 'No passkey had been added in the last 7 days.'
                : result.passkeys_removed === 1
                  ? 'The passkey added in the last 7 days was removed.'
                  : `The ${result.passkeys_removed} passkeys added in the last 7 days were removed.`}
            </li>
            {result.two_step_turned_off ? (
              <li>
                Two-step sign-in was turned off: set it up again with your own app once you are back in.
              </li>
            ) : null}
            <li>Your old password no longer works.</li>
          </ul>
          <p className="mt-4 font-medium text-slate-900">Choose a new password now to sign in again.</p>
          <a href={result.reset_url} className={buttonClasses('primary', 'lg', 'mt-4 w-full justify-center')}>
            Choose a new password
          </a>
          <p className="mt-3 text-slate-600 text-sm">
            The link above works for an hour. After that, use “Forgot password?” on the login page.
          </p>
        </AuthCard>
      </>
    )
  }

  return (
    <>
      <title>I did not do this · Laptop Market</title>
      <AuthCard title="I did not do this" footer={forgot}>
        {!token ? (
          <FormError message="This link is not complete. Open it again from the email." />
        ) : info.isPending ? (
          <Skeleton className="h-32 w-full" />
        ) : info.isError ? (
          <FormError message={errorMessage(info.error, 'This link does not work.')} />
        ) : (
          <div className="space-y-4">
            <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
              {CHANGE[info.data.kind] ?? 'Your account was changed'} on {timeOf(info.data.at)}.
            </p>
            <p className="text-slate-700">If it was not you, secure your account now:</p>
            <ul className="list-disc space-y-1 pl-5 text-slate-700 text-sm">
              <li>every device signed in to your account is signed out, this one too;</li>
              <li>passkeys added in the last 7 days are removed;</li>
              {info.data.kind === 'two_step.enable' ? (
                <li>two-step sign-in is turned off (the app that was set up may not be yours);</li>
              ) : null}
              <li>your password stops working, and you choose a new one next.</li>
            </ul>
            <Button size="lg" className="w-full" onClick={secure} disabled={sending}>
              {sending ? 'Securing…' : 'Secure my account'}
            </Button>
            <FormError message={failed} />
          </div>
        )}
      </AuthCard>
    </>
  )
}
