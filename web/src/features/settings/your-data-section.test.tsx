import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse, renderWithApp } from '../../test/render'
import { YourDataSection } from './your-data-section'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } })

function messageOf(field: HTMLElement): string | null {
  const id = field.getAttribute('aria-describedby')
  return id ? (document.getElementById(id)?.textContent ?? null) : null
}

/** Every erase is refused with `message`; the calls made are kept. */
function stubRefusal(message: string) {
  const calls: { url: string; method?: string; body: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, method: init?.method, body: init?.body ? JSON.parse(String(init.body)) : undefined })
      return jsonResponse({ error: { code: 'VALIDATION', message } }, { status: 400 })
    }),
  )
  return calls
}

describe('YourDataSection, erase my account', () => {
  it('asks for the password and, with two-step sign-in on, a code (or a backup code); a refusal shows under the code', async () => {
    const calls = stubRefusal('Invalid code')
    renderWithApp(<YourDataSection needsCode />)
    const form = screen.getByRole('form', { name: 'Erase my account' })
    const password = within(form).getByLabelText('Your password')
    // Worded as when turning two-step sign-in off: the server takes a backup code here too.
    const code = within(form).getByLabelText('Code from the app (or a backup code)')
    expect(code.getAttribute('autocomplete')).toBe('one-time-code')
    expect(code.getAttribute('maxlength')).toBe('32')
    expect(code.getAttribute('inputmode')).toBeNull()
    const erase = within(form).getByRole('button', { name: 'Erase my account' }) as HTMLButtonElement
    type(password, 'pat-password')
    expect(erase.disabled).toBe(true)
    type(code, '123456')
    fireEvent.click(erase)

    fireEvent.click(screen.getByRole('button', { name: 'Erase for good' }))
    await waitFor(() => expect(messageOf(code)).toBe('Invalid code'))
    expect(password.getAttribute('aria-invalid')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Erase for good' })).toBeNull()
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([
      { url: '/api/me', method: 'DELETE', body: { password: 'pat-password', code: '123456' } },
    ])
  })

  it('asks for the password alone when two-step sign-in is off, and shows a refusal under it', async () => {
    const calls = stubRefusal('Invalid password')
    renderWithApp(<YourDataSection needsCode={false} />)
    expect(screen.queryByLabelText(/Code from/)).toBeNull()
    const password = screen.getByLabelText('Your password')
    type(password, 'wrong')
    fireEvent.click(screen.getByRole('button', { name: 'Erase my account' }))
    fireEvent.click(screen.getByRole('button', { name: 'Erase for good' }))
    await waitFor(() => expect(messageOf(password)).toBe('Invalid password'))
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ password: 'wrong' })
  })

  it("says why the account cannot be erased yet before asking for anything, in the server's words", async () => {
    const reason =
      'A sale of yours is still open (paid, handed over or disputed). Finish it first, then erase your account.'
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/me/erasure' ? jsonResponse({ can_erase: false, reason }) : jsonResponse({}),
      ),
    )
    renderWithApp(<YourDataSection needsCode={false} />)
    expect(await screen.findByText('You cannot erase your account yet')).toBeTruthy()
    expect(screen.getByText(reason)).toBeTruthy()
    expect(screen.queryByLabelText('Your password')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Erase my account' })).toBeNull()
  })
})
