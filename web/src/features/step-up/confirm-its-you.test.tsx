import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api } from '../../lib/api-client'
import { jsonResponse } from '../../test/render'
import { ConfirmItsYouHost } from './confirm-its-you-host'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const STEP_UP_REQUIRED = {
  error: {
    code: 'STEP_UP_REQUIRED',
    message:
      "Confirm it's you: enter your password (or a code from your authenticator app, or use a passkey) to make this change.",
  },
}

/** The server: payout details refused until a step-up is given with `pat-password`; every call kept. */
function stubServer(state = { fresh_until: null, password: true, code: true, passkey: false }) {
  const calls: string[] = []
  let proved = false
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      calls.push(`${init?.method ?? 'GET'} ${url}${body ? ` ${JSON.stringify(body)}` : ''}`)
      if (url === '/api/me/step-up' && init?.method !== 'POST') return jsonResponse(state)
      if (url === '/api/me/step-up/passkey-options') {
        return jsonResponse({
          challenge: 'Y2hhbGxlbmdl',
          allowCredentials: [{ id: 'cGF0cy1rZXk', type: 'public-key', transports: ['internal'] }],
          userVerification: 'required',
        })
      }
      if (url === '/api/me/step-up') {
        if (body.password === 'pat-password' || body.code === '123456' || body.passkey?.id === 'pats-key') {
          proved = true
          return jsonResponse({ ...state, fresh_until: new Date().toISOString() })
        }
        const field = body.password !== undefined ? 'password' : 'code'
        return jsonResponse(
          {
            error: {
              code: 'VALIDATION',
              message: 'Wrong',
              fields: { [field]: `That ${field} is not right` },
            },
          },
          { status: 400 },
        )
      }
      if (!proved) return jsonResponse(STEP_UP_REQUIRED, { status: 403 })
      return jsonResponse({ url: '/dashboard/earnings' })
    }),
  )
  return calls
}

describe("Confirm it's you", () => {
  it('opens when a change needs a step-up, shows a wrong password under the field, and makes the change once confirmed', async () => {
    const calls = stubServer()
    render(<ConfirmItsYouHost />)
    const change = api.post<{ url: string }>('/payouts/account', { account_holder: 'Pat' })
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" }, { timeout: 5000 })
    const password = await screen.findByLabelText('Your password')
    await waitFor(() => expect(document.activeElement).toBe(password))
    // The account has no passkey: none is offered.
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull()
    fireEvent.change(password, { target: { value: 'nope' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    expect(await screen.findByText('That password is not right')).toBeTruthy()
    fireEvent.change(password, { target: { value: 'pat-password' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    await expect(change).resolves.toEqual({ url: '/dashboard/earnings' })
    await waitFor(() => expect(dialog.isConnected).toBe(false))
    expect(calls).toEqual([
      'POST /api/payouts/account {"account_holder":"Pat"}',
      'GET /api/me/step-up',
      'POST /api/me/step-up {"password":"nope"}',
      'POST /api/me/step-up {"password":"pat-password"}',
      'POST /api/payouts/account {"account_holder":"Pat"}',
    ])
  })

  it('takes a code from the authenticator app instead when two-step sign-in is on', async () => {
    const calls = stubServer()
    render(<ConfirmItsYouHost />)
    const change = api.post<{ url: string }>('/payouts/account', {})
    fireEvent.click(
      await screen.findByRole('button', { name: 'Use a code from your authenticator app instead' }),
    )
    const code = screen.getByLabelText('Code from the app (or a backup code)')
    expect(code.getAttribute('autocomplete')).toBe('one-time-code')
    fireEvent.change(code, { target: { value: '123 456' } })
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
    await expect(change).resolves.toEqual({ url: '/dashboard/earnings' })
    expect(calls).toContain('POST /api/me/step-up {"code":"123456"}')
  })

  it('leaves the change undone when cancelled: the call fails with the step-up refusal', async () => {
    const calls = stubServer()
    render(<ConfirmItsYouHost />)
    const change = api.post('/payouts/account', {})
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }))
    const err = await change.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).code).toBe('STEP_UP_REQUIRED')
    expect(calls.filter((c) => c.startsWith('POST /api/payouts'))).toHaveLength(1)
  })

  describe('with a passkey', () => {
    const bytes = (text: string) => new TextEncoder().encode(text).buffer
    /** The browser's WebAuthn: `get` answers as the device would, or throws what the prompt does. */
    function stubWebAuthn(get: (options: CredentialRequestOptions) => Promise<unknown>) {
      vi.stubGlobal('PublicKeyCredential', class {})
      Object.defineProperty(navigator, 'credentials', { value: { get: vi.fn(get) }, configurable: true })
      return navigator.credentials.get as ReturnType<typeof vi.fn>
    }
    afterEach(() => {
      Reflect.deleteProperty(navigator, 'credentials')
    })
    const passkeyAccount = { fresh_until: null, password: true, code: false, passkey: true }

    it("offers the account's passkeys first, and makes the change once one confirms it is you", async () => {
      const calls = stubServer(passkeyAccount)
      const get = stubWebAuthn(async () => ({
        id: 'pats-key',
        rawId: bytes('pats-key'),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        getClientExtensionResults: () => ({}),
        response: {
          authenticatorData: bytes('data'),
          clientDataJSON: bytes('{}'),
          signature: bytes('signed'),
          userHandle: bytes('pat'),
        },
      }))
      render(<ConfirmItsYouHost />)
      const change = api.post<{ url: string }>('/payouts/account', {})
      const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" }, { timeout: 5000 })
      const usePasskey = await screen.findByRole('button', { name: 'Use a passkey' })
      // The password stays on offer beside it.
      expect(screen.getByLabelText('Your password')).toBeTruthy()
      fireEvent.click(usePasskey)
      await expect(change).resolves.toEqual({ url: '/dashboard/earnings' })
      await waitFor(() => expect(dialog.isConnected).toBe(false))
      const asked = get.mock.calls[0]?.[0] as CredentialRequestOptions
      expect(asked.publicKey?.userVerification).toBe('required')
      expect(calls).toContain('POST /api/me/step-up/passkey-options')
      expect(calls.find((c) => c.startsWith('POST /api/me/step-up {'))).toMatch(
        /^POST \/api\/me\/step-up \{"passkey":\{"id":"pats-key"/,
      )
      expect(calls.filter((c) => c.startsWith('POST /api/payouts'))).toHaveLength(2)
    })

    it('says so when the prompt is closed, and leaves the password to use instead', async () => {
      const calls = stubServer(passkeyAccount)
      stubWebAuthn(async () => {
        throw new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError')
      })
      render(<ConfirmItsYouHost />)
      const change = api.post<{ url: string }>('/payouts/account', {})
      fireEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }, { timeout: 5000 }))
      expect((await screen.findByRole('alert')).textContent).toBe(
        'The passkey prompt was closed or timed out. Please try again.',
      )
      expect(calls.some((c) => c.startsWith('POST /api/me/step-up {'))).toBe(false)
      fireEvent.change(screen.getByLabelText('Your password'), { target: { value: 'pat-password' } })
      fireEvent.click(screen.getByRole('button', { name: 'Confirm' }))
      await expect(change).resolves.toEqual({ url: '/dashboard/earnings' })
    })
  })
})
