import { useState } from 'react'
import { renderSVG } from 'uqr'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { toast } from '../../lib/toast'
import { APP_CODE, APP_OR_BACKUP_CODE, PasswordCodeForm, usePasswordCode } from './password-code-form'
import { type Enrolment, useTwoFactor } from './security-api'

/** The secret as an authenticator app asks for it when typed: groups of four. */
function secretText(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get('secret') ?? ''
  return secret.replace(/(.{4})/g, '$1 ').trim()
}

function BackupCodes({ codes }: { codes: string[] }) {
  const download = () => {
    const blob = new Blob([`Laptop Market backup codes (each works once)\n\n${codes.join('\n')}\n`], {
      type: 'text/plain',
    })
    const a = document.createElement('a')
    a.href = URL.createObjectURL(blob)
    a.download = 'laptop-market-backup-codes.txt'
    a.click()
    URL.revokeObjectURL(a.href)
  }
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-4">
      <p className="font-medium text-slate-900">Your backup codes</p>
      <p className="mt-1 text-slate-700 text-sm">
        Keep these somewhere safe. If you lose your phone, each code signs you in once. They are shown only
        now.
      </p>
      {/* A code is 23 characters: two columns of them fit from the sm width up; a phone shows one column, so no code breaks. */}
      <ul
        aria-label="Backup codes"
        className="mt-3 grid grid-cols-1 gap-2 font-mono text-slate-900 text-sm sm:grid-cols-2"
      >
        {codes.map((code) => (
          <li key={code} className="whitespace-nowrap">
            {code}
          </li>
        ))}
      </ul>
      <Button variant="secondary" size="sm" className="mt-3" onClick={download}>
        Download the codes
      </Button>
    </div>
  )
}

type Stage = 'idle' | 'password' | 'scan' | 'off' | 'codes'

/** Two-step sign-in: turn on (password, QR code or secret, first code), see backup codes, turn off. */
export function TwoStepSection({ isOn }: { isOn: boolean }) {
  const twoFactor = useTwoFactor()
  const [stage, setStage] = useState<Stage>('idle')
  // One holder for every form below: they show one at a time, as steps of the same section.
  const fields = usePasswordCode()
  const { password, code, clear, run } = fields
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null)
  const [codes, setCodes] = useState<string[] | null>(null)
  // Each step starts empty, without the message of a step left before (a wrong password in one is not the next's).
  const goTo = (next: Stage) => {
    clear()
    setStage(next)
  }
  const backToIdle = () => goTo('idle')

  const start = () =>
    void run(async () => {
      const answer = await twoFactor.start(password)
      setEnrolment(answer)
      goTo('scan')
    })

  const confirm = () =>
    void run(async () => {
      await twoFactor.confirm(code)
      setCodes(enrolment?.backupCodes ?? null)
      setEnrolment(null)
      goTo('idle')
      toast.success('Two-step sign-in is on')
    })

  const turnOff = () =>
    void run(async () => {
      await twoFactor.turnOff(password, code)
      setCodes(null)
      goTo('idle')
      toast.success('Two-step sign-in is off')
    })

  const makeNewCodes = () =>
    void run(async () => {
      setCodes(await twoFactor.newBackupCodes(password))
      goTo('idle')
      toast.success('New backup codes made; the old ones no longer work')
    })

  return (
    <section
      aria-labelledby="two-step-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
    >
      <h2
        id="two-step-heading"
        className="flex flex-wrap items-center gap-2 font-semibold text-lg text-slate-900"
      >
        Two-step sign-in
        {isOn ? <Badge tone="accent">On</Badge> : <Badge tone="outline">Off</Badge>}
      </h2>
      <p className="mt-1 text-slate-600 text-sm">
        After your password, sign-in asks for a code from an authenticator app on your phone (Google
        Authenticator, Microsoft Authenticator, 1Password and others). Admins need it on.
      </p>
      {codes ? (
        <div className="mt-4">
          <BackupCodes codes={codes} />
        </div>
      ) : null}

      {!isOn && stage === 'idle' ? (
        <Button className="mt-4" onClick={() => goTo('password')}>
          Turn on two-step sign-in
        </Button>
      ) : null}

      {!isOn && stage === 'password' ? (
        <PasswordCodeForm
          fields={fields}
          label="Confirm your password"
          askPassword
          submitLabel="Continue"
          onSubmit={start}
          onCancel={backToIdle}
        />
      ) : null}

      {!isOn && stage === 'scan' && enrolment ? (
        <PasswordCodeForm
          fields={fields}
          label="Set up your authenticator app"
          code={APP_CODE}
          submitLabel="Turn on"
          onSubmit={confirm}
          className="mt-4 space-y-4"
        >
          <ol className="list-decimal space-y-3 pl-5 text-slate-700 text-sm">
            <li>
              Scan this QR code with your authenticator app.
              <div
                role="img"
                aria-label="QR code for your authenticator app"
                className="mt-2 w-44 rounded-lg border border-slate-200 bg-white p-2"
                // The picture is drawn here from the enrolment URI; nothing in it comes from another person.
                // biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG this page made itself
                dangerouslySetInnerHTML={{ __html: renderSVG(enrolment.totpURI, { pixelSize: 4 }) }}
              />
            </li>
            <li>
              Or type this key into the app:
              <code
                data-testid="totp-secret"
                className="mt-1 block break-all rounded bg-slate-100 p-2 font-mono text-slate-900"
              >
                {secretText(enrolment.totpURI)}
              </code>
            </li>
            <li>Enter the 6-digit code the app shows.</li>
          </ol>
        </PasswordCodeForm>
      ) : null}

      {isOn && stage !== 'off' && stage !== 'codes' ? (
        <div className="mt-4 flex flex-wrap gap-2">
          <Button variant="secondary" onClick={() => goTo('codes')}>
            Make new backup codes
          </Button>
          <Button variant="danger-outline" onClick={() => goTo('off')}>
            Turn off two-step sign-in
          </Button>
        </div>
      ) : null}

      {isOn && stage === 'codes' ? (
        <PasswordCodeForm
          fields={fields}
          label="Make new backup codes"
          askPassword
          submitLabel="Make new codes"
          onSubmit={makeNewCodes}
          onCancel={backToIdle}
        >
          <p className="text-slate-700 text-sm">
            Backup codes are kept so that nobody, not even us, can read them again: they are shown once, when
            they are made. Lost them? Make new ones; the old ones stop working.
          </p>
        </PasswordCodeForm>
      ) : null}

      {isOn && stage === 'off' ? (
        <PasswordCodeForm
          fields={fields}
          label="Turn off two-step sign-in"
          askPassword
          code={APP_OR_BACKUP_CODE}
          submitLabel="Turn off"
          submitVariant="danger"
          onSubmit={turnOff}
          onCancel={backToIdle}
        />
      ) : null}
    </section>
  )
}
