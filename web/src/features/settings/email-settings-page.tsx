import { CircleAlert, CircleCheck } from 'lucide-react'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { EMAIL_TOPICS, EmailTopic } from '#contract/email-preferences'
import { LoadFailed } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage } from '../../lib/api-client'
import { resendVerificationEmail } from '../auth'
import { useEmailSettings, useUpdateEmailPreferences } from './email-settings-api'

/** Better Auth's `?error=` after a confirmation link that did not work. */
function describeVerifyError(code: string): string {
  if (/expired/i.test(code)) return 'That confirmation link has expired. Send yourself a new one below.'
  return 'That confirmation link did not work. Send yourself a new one below.'
}

/** `/dashboard/settings`: the account's address (confirmed or not) and which non-essential emails it gets. */
export function EmailSettingsPage() {
  const [params] = useSearchParams()
  const verifyError = params.get('error')
  const settings = useEmailSettings()
  const update = useUpdateEmailPreferences()
  const [shown, setShown] = useState<Partial<Record<EmailTopic, boolean>>>({})
  const [resend, setResend] = useState<
    { state: 'idle' | 'sending' | 'sent' } | { state: 'failed'; message: string }
  >({
    state: 'idle',
  })

  const sendAgain = async (email: string) => {
    setResend({ state: 'sending' })
    try {
      await resendVerificationEmail(email)
      setResend({ state: 'sent' })
    } catch (err) {
      setResend({ state: 'failed', message: errorMessage(err, 'Could not send the link. Please try again.') })
    }
  }

  return (
    <>
      <title>Email settings · Laptop Market</title>
      <PageHeader title="Email settings">
        <p>Your address, and which emails you want from Laptop Market.</p>
      </PageHeader>
      {settings.isError ? (
        <LoadFailed
          title="Could not load your email settings"
          error={settings.error}
          onRetry={() => settings.refetch()}
        />
      ) : (
        <div className="max-w-2xl space-y-6">
          <section
            aria-labelledby="address-heading"
            className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
          >
            <h2 id="address-heading" className="font-semibold text-lg text-slate-900">
              Your address
            </h2>
            {settings.isPending ? (
              <Skeleton className="mt-3 h-6 w-64" />
            ) : (
              <>
                <p className="mt-3 flex flex-wrap items-center gap-2 text-slate-900">
                  <span className="break-all font-medium">{settings.data.email}</span>
                  {settings.data.emailVerified ? (
                    <Badge tone="accent">
                      <CircleCheck aria-hidden className="size-4" />
                      Verified
                    </Badge>
                  ) : (
                    <Badge tone="outline">
                      <CircleAlert aria-hidden className="size-4" />
                      Not confirmed yet
                    </Badge>
                  )}
                </p>
                {verifyError && !settings.data.emailVerified ? (
                  <p role="alert" className="mt-3 text-red-700 text-sm">
                    {describeVerifyError(verifyError)}
                  </p>
                ) : null}
                {settings.data.emailVerified ? null : (
                  <div className="mt-4 space-y-2 text-slate-700 text-sm">
                    <p>
                      We sent a confirmation link when you signed up. Confirming shows buyers and sellers that
                      they can reach you.
                    </p>
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={resend.state === 'sending'}
                      onClick={() => sendAgain(settings.data.email)}
                    >
                      {resend.state === 'sending' ? 'Sending…' : 'Send the link again'}
                    </Button>
                    <p role="status" className={resend.state === 'failed' ? 'text-red-700' : undefined}>
                      {resend.state === 'sent'
                        ? 'Sent. Check your inbox for the newest email from Laptop Market.'
                        : resend.state === 'failed'
                          ? resend.message
                          : ''}
                    </p>
                  </div>
                )}
              </>
            )}
          </section>

          <section
            aria-labelledby="topics-heading"
            className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
          >
            <h2 id="topics-heading" className="font-semibold text-lg text-slate-900">
              What we email you
            </h2>
            <p className="mt-1 text-slate-600 text-sm">
              Password resets and address confirmations always go: they keep your account safe. Choose the
              rest; each change is saved at once.
            </p>
            <fieldset className="mt-4" disabled={settings.isPending || update.isPending}>
              <legend className="sr-only">Emails you get</legend>
              <ul className="divide-y divide-slate-200">
                {EmailTopic.options.map((topic) => {
                  const id = `topic-${topic}`
                  return (
                    <li key={topic} className="flex items-start gap-3 py-3">
                      <input
                        id={id}
                        type="checkbox"
                        className="mt-1 size-5 shrink-0 accent-accent"
                        aria-describedby={`${id}-about`}
                        checked={shown[topic] ?? settings.data?.topics[topic] ?? true}
                        onChange={(e) => {
                          // Local state changes within the click itself, so the box never flicks back while
                          // the cache catches up; a refused save shows the saved value again.
                          const value = e.target.checked
                          setShown((s) => ({ ...s, [topic]: value }))
                          update.mutate({ [topic]: value }, () =>
                            setShown(({ [topic]: _dropped, ...rest }) => rest),
                          )
                        }}
                      />
                      <div className="min-w-0">
                        <label htmlFor={id} className="block font-medium text-slate-900">
                          {EMAIL_TOPICS[topic].label}
                        </label>
                        <p id={`${id}-about`} className="text-slate-600 text-sm">
                          {EMAIL_TOPICS[topic].description}
                        </p>
                      </div>
                    </li>
                  )
                })}
              </ul>
            </fieldset>
            <p
              role="status"
              className={update.isError ? 'mt-2 text-red-700 text-sm' : 'mt-2 text-slate-600 text-sm'}
            >
              {update.isError
                ? errorMessage(update.error, 'Could not save. Please try again.')
                : update.isSuccess
                  ? 'Saved.'
                  : ''}
            </p>
          </section>
        </div>
      )}
    </>
  )
}
