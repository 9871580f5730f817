import { MailCheck } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { Button, buttonClasses } from '../../components/ui/button'
import { errorMessage } from '../../lib/api-client'
import { useReturnPath } from './use-finish-sign-in'
import { useSession } from './use-session'
import { resendVerificationEmail } from './verification-email'

type Resend = { state: 'idle' | 'sending' | 'sent' } | { state: 'failed'; message: string }

/**
 * `/welcome`: where a new account lands after sign-up. It says a confirmation link went to the address (paying
 * for a laptop needs a confirmed one), sends it again on request, and leads on to the page the person came from.
 */
export function CheckInboxPage() {
  const { user } = useSession()
  const returnTo = useReturnPath()
  const [resend, setResend] = useState<Resend>({ state: 'idle' })
  if (!user) return null

  const sendAgain = async () => {
    setResend({ state: 'sending' })
    try {
      await resendVerificationEmail(user.email)
      setResend({ state: 'sent' })
    } catch (err) {
      setResend({ state: 'failed', message: errorMessage(err, 'Could not send the link. Please try again.') })
    }
  }

  return (
    <>
      <title>Check your inbox · Laptop Market</title>
      <div className="mx-auto w-full max-w-lg py-4 sm:py-8">
        <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <MailCheck aria-hidden className="size-10 text-accent" />
          <h1 className="mt-3 font-bold text-3xl text-slate-900 tracking-tight">Check your inbox</h1>
          <p className="mt-2 text-lg text-slate-800">Welcome to Laptop Market, {user.name}.</p>
          <p className="mt-4 text-slate-700">
            We sent a confirmation link to <strong className="break-all text-slate-900">{user.email}</strong>.
            Open it to confirm your address: you need a confirmed address to hold and pay for a laptop. You
            can look around meanwhile.
          </p>
          <p className="mt-3 text-slate-600 text-sm">
            Nothing there after a few minutes? Look in your spam or junk folder, or send it again.
          </p>
          <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center">
            <Button variant="secondary" disabled={resend.state === 'sending'} onClick={sendAgain}>
              {resend.state === 'sending' ? 'Sending…' : 'Send the link again'}
            </Button>
            <Link to={returnTo} className={buttonClasses('primary', 'md')}>
              {returnTo === '/' ? 'Start browsing' : 'Continue'}
            </Link>
          </div>
          <p
            role="status"
            className={
              resend.state === 'failed' ? 'mt-3 text-red-700 text-sm' : 'mt-3 text-slate-700 text-sm'
            }
          >
            {resend.state === 'sent'
              ? 'Sent. Check your inbox for the newest email from Laptop Market.'
              : resend.state === 'failed'
                ? resend.message
                : ''}
          </p>
        </section>
      </div>
    </>
  )
}
