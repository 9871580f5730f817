import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toast } from '../../lib/toast'
import { jsonResponse, renderWithApp } from '../../test/render'
import { TwoStepSection } from './two-step-section'

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

const TOTP_URI =
  'otpauth://totp/Laptop%20Market:pat@example.test?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Laptop%20Market'
const FIRST_CODES = ['aaaa-1111', 'bbbb-2222']
const NEW_CODES = ['cccc-3333', 'dddd-4444']

type Call = { url: string; body: unknown }

/** The auth API as the section meets it: `answers` by path, and every call it made, in order. */
function stubApi(answers: Record<string, Response | (() => Response)>) {
  const calls: Call[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined })
      const answer = answers[url]
      if (!answer) return jsonResponse(null)
      return typeof answer === 'function' ? answer() : answer
    }),
  )
  return calls
}

const refused = (message: string) => jsonResponse({ error: { code: 'VALIDATION', message } }, { status: 400 })

const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } })

/** The message FormField shows under `field`, found the way a screen reader finds it. */
function messageOf(field: HTMLElement): string | null {
  const id = field.getAttribute('aria-describedby')
  return id ? (document.getElementById(id)?.textContent ?? null) : null
}

/** Opens a step with the button `open`, sends a wrong password with `send`: the refusal shows under the field. */
async function refusePassword(open: string, send: string): Promise<HTMLElement> {
  fireEvent.click(screen.getByRole('button', { name: open }))
  const password = screen.getByLabelText('Your password')
  type(password, 'wrong')
  fireEvent.click(screen.getByRole('button', { name: send }))
  await waitFor(() => expect(messageOf(password)).toBe('Invalid password'))
  return password
}

/** The backup codes the section shows, once it shows them. */
async function codesShown(): Promise<(string | null)[]> {
  const list = await screen.findByRole('list', { name: 'Backup codes' })
  return within(list)
    .getAllByRole('listitem')
    .map((li) => li.textContent)
}

beforeEach(() => {
  vi.mocked(toast.success).mockClear()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('TwoStepSection, off', () => {
  it('turns on: password, then the QR code and typed key, then the first code; shows the backup codes', async () => {
    const calls = stubApi({
      '/api/auth/two-factor/enable': () => jsonResponse({ totpURI: TOTP_URI, backupCodes: FIRST_CODES }),
    })
    renderWithApp(<TwoStepSection isOn={false} />)
    expect(screen.getByRole('heading', { name: /Two-step sign-in/ }).textContent).toContain('Off')

    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }))
    const askPassword = screen.getByRole('form', { name: 'Confirm your password' })
    const password = within(askPassword).getByLabelText('Your password')
    expect(password.getAttribute('type')).toBe('password')
    expect(password.getAttribute('autocomplete')).toBe('current-password')
    const cont = within(askPassword).getByRole('button', { name: 'Continue' }) as HTMLButtonElement
    expect(cont.disabled).toBe(true)
    type(password, 'pat-password')
    expect(cont.disabled).toBe(false)
    fireEvent.click(cont)

    const scan = await screen.findByRole('form', { name: 'Set up your authenticator app' })
    expect(within(scan).getByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy()
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP')
    expect(within(scan).getByText('Enter the 6-digit code the app shows.')).toBeTruthy()
    const code = within(scan).getByLabelText('Code from the app')
    expect(code.getAttribute('inputmode')).toBe('numeric')
    expect(code.getAttribute('autocomplete')).toBe('one-time-code')
    expect(code.getAttribute('maxlength')).toBe('8')
    const turnOn = within(scan).getByRole('button', { name: 'Turn on' }) as HTMLButtonElement
    expect(turnOn.disabled).toBe(true)
    expect(within(scan).queryByRole('button', { name: 'Cancel' })).toBeNull()
    type(code, '123 456')
    fireEvent.click(turnOn)

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Two-step sign-in is on'))
    expect(await codesShown()).toEqual(FIRST_CODES)
    expect(screen.queryByRole('form')).toBeNull()
    expect(calls.map((c) => [c.url, c.body])).toContainEqual([
      '/api/auth/two-factor/enable',
      { password: 'pat-password' },
    ])
    expect(calls.map((c) => [c.url, c.body])).toContainEqual([
      '/api/auth/two-factor/verify-totp',
      { code: '123456' },
    ])
  })

  it('says why a wrong password or code did not work, under the field', async () => {
    stubApi({
      '/api/auth/two-factor/enable': () => refused('Invalid password'),
    })
    renderWithApp(<TwoStepSection isOn={false} />)
    const password = await refusePassword('Turn on two-step sign-in', 'Continue')
    expect(password.getAttribute('aria-invalid')).toBe('true')
    expect(toast.success).not.toHaveBeenCalled()

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('form')).toBeNull()
    expect(screen.getByRole('button', { name: 'Turn on two-step sign-in' })).toBeTruthy()
  })

  it('starts clean after Cancel: no typed password, no old message', async () => {
    stubApi({ '/api/auth/two-factor/enable': () => refused('Invalid password') })
    renderWithApp(<TwoStepSection isOn={false} />)
    await refusePassword('Turn on two-step sign-in', 'Continue')
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))

    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }))
    const password = screen.getByLabelText('Your password') as HTMLInputElement
    expect(password.value).toBe('')
    expect(messageOf(password)).toBeNull()
    expect(password.getAttribute('aria-invalid')).toBeNull()
  })

  it('keeps the code step open with the message when the first code is wrong', async () => {
    stubApi({
      '/api/auth/two-factor/enable': () => jsonResponse({ totpURI: TOTP_URI, backupCodes: FIRST_CODES }),
      '/api/auth/two-factor/verify-totp': () => refused('Invalid code'),
    })
    renderWithApp(<TwoStepSection isOn={false} />)
    fireEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }))
    type(screen.getByLabelText('Your password'), 'pat-password')
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    const code = await screen.findByLabelText('Code from the app')
    type(code, '000000')
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }))
    await waitFor(() => expect(messageOf(code)).toBe('Invalid code'))
    expect(code.getAttribute('aria-invalid')).toBe('true')
    expect(screen.queryByRole('list', { name: 'Backup codes' })).toBeNull()
    expect(toast.success).not.toHaveBeenCalled()
  })
})

describe('TwoStepSection, on', () => {
  it('makes new backup codes with the password and shows them', async () => {
    const calls = stubApi({
      '/api/auth/two-factor/generate-backup-codes': () => jsonResponse({ backupCodes: NEW_CODES }),
    })
    renderWithApp(<TwoStepSection isOn />)
    expect(screen.getByRole('heading', { name: /Two-step sign-in/ }).textContent).toContain('On')

    fireEvent.click(screen.getByRole('button', { name: 'Make new backup codes' }))
    const form = screen.getByRole('form', { name: 'Make new backup codes' })
    expect(within(form).getByText(/they are shown once, when they are made/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Turn off two-step sign-in' })).toBeNull()
    const password = within(form).getByLabelText('Your password')
    expect(password.getAttribute('type')).toBe('password')
    const make = within(form).getByRole('button', { name: 'Make new codes' }) as HTMLButtonElement
    expect(make.disabled).toBe(true)
    type(password, 'pat-password')
    fireEvent.click(make)

    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('New backup codes made; the old ones no longer work'),
    )
    expect(await codesShown()).toEqual(NEW_CODES)
    expect(screen.queryByRole('form')).toBeNull()
    expect(screen.getByRole('button', { name: 'Make new backup codes' })).toBeTruthy()
    expect(calls.map((c) => [c.url, c.body])).toContainEqual([
      '/api/auth/two-factor/generate-backup-codes',
      { password: 'pat-password' },
    ])
  })

  it('keeps Cancel off while its call is under way, so the answer lands on the step that asked', async () => {
    let answer: (response: Response) => void = () => {}
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Promise<Response>((resolve) => {
            answer = resolve
          }),
      ),
    )
    renderWithApp(<TwoStepSection isOn />)
    fireEvent.click(screen.getByRole('button', { name: 'Make new backup codes' }))
    const cancel = screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement
    expect(cancel.disabled).toBe(false)
    type(screen.getByLabelText('Your password'), 'pat-password')
    fireEvent.click(screen.getByRole('button', { name: 'Make new codes' }))
    await waitFor(() => expect(cancel.disabled).toBe(true))
    answer(jsonResponse({ backupCodes: NEW_CODES }))
    expect(await codesShown()).toEqual(NEW_CODES)
  })

  it('says why new backup codes were not made, and Cancel goes back', async () => {
    stubApi({
      '/api/auth/two-factor/generate-backup-codes': () => refused('Invalid password'),
    })
    renderWithApp(<TwoStepSection isOn />)
    await refusePassword('Make new backup codes', 'Make new codes')
    expect(screen.queryByRole('list', { name: 'Backup codes' })).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('form')).toBeNull()
    expect(screen.getByRole('button', { name: 'Turn off two-step sign-in' })).toBeTruthy()
  })

  it('gives each step its own start: a refusal and a password typed in one do not follow into the next', async () => {
    stubApi({ '/api/auth/two-factor/generate-backup-codes': () => refused('Invalid password') })
    renderWithApp(<TwoStepSection isOn />)
    await refusePassword('Make new backup codes', 'Make new codes')
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))

    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-step sign-in' }))
    const form = screen.getByRole('form', { name: 'Turn off two-step sign-in' })
    const password = within(form).getByLabelText('Your password') as HTMLInputElement
    const code = within(form).getByLabelText('Code from the app (or a backup code)') as HTMLInputElement
    expect(password.value).toBe('')
    expect(code.value).toBe('')
    expect(messageOf(code)).toBeNull()
    expect(within(form).queryByText('Invalid password')).toBeNull()
    expect((within(form).getByRole('button', { name: 'Turn off' }) as HTMLButtonElement).disabled).toBe(true)

    // Typed here, then Cancel: the next step is empty too.
    type(password, 'pat-password')
    type(code, '123456')
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }))
    fireEvent.click(screen.getByRole('button', { name: 'Make new backup codes' }))
    const again = screen.getByRole('form', { name: 'Make new backup codes' })
    expect((within(again).getByLabelText('Your password') as HTMLInputElement).value).toBe('')
    expect(within(again).queryByText('Invalid password')).toBeNull()
  })

  it('turns off with the password and a code (or a backup code)', async () => {
    const calls = stubApi({})
    renderWithApp(<TwoStepSection isOn />)
    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-step sign-in' }))
    const form = screen.getByRole('form', { name: 'Turn off two-step sign-in' })
    const password = within(form).getByLabelText('Your password')
    const code = within(form).getByLabelText('Code from the app (or a backup code)')
    expect(code.getAttribute('autocomplete')).toBe('one-time-code')
    expect(code.getAttribute('maxlength')).toBe('32')
    expect(code.getAttribute('inputmode')).toBeNull()
    const off = within(form).getByRole('button', { name: 'Turn off' }) as HTMLButtonElement
    type(password, 'pat-password')
    expect(off.disabled).toBe(true)
    type(code, '  aaaa-1111 ')
    expect(off.disabled).toBe(false)
    fireEvent.click(off)

    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Two-step sign-in is off'))
    expect(calls.map((c) => [c.url, c.body])).toContainEqual([
      '/api/auth/two-factor/disable',
      { password: 'pat-password', code: 'aaaa-1111' },
    ])
  })

  it('shows why it could not turn off under the code, not the password', async () => {
    stubApi({ '/api/auth/two-factor/disable': () => refused('Invalid code') })
    renderWithApp(<TwoStepSection isOn />)
    fireEvent.click(screen.getByRole('button', { name: 'Turn off two-step sign-in' }))
    const password = screen.getByLabelText('Your password')
    const code = screen.getByLabelText('Code from the app (or a backup code)')
    type(password, 'pat-password')
    type(code, '000000')
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }))
    await waitFor(() => expect(messageOf(code)).toBe('Invalid code'))
    expect(password.getAttribute('aria-invalid')).toBeNull()
    expect(toast.success).not.toHaveBeenCalled()
  })
})
