import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { Route, Routes, useLocation } from 'react-router'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadPasswordRule } from '../../lib/password-rule'
import { jsonResponse, renderWithApp } from '../../test/render'
import { CheckInboxPage } from './check-inbox-page'
import { SignupPage } from './signup-page'

const NEW_USER = { id: 'u1', name: 'Nia New', email: 'nia@example.test', role: 'buyer', verified: false }

// The password rule's word lists load on first use; loaded here, a slow load on a busy machine is not a slow page.
// (The hook returns nothing: a function it returned would be run as its teardown.)
beforeAll(async () => {
  await loadPasswordRule()
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function Where() {
  const location = useLocation()
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>
}

type Call = { url: string; body: unknown }

function stubApi(calls: Call[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined })
      if (url === '/api/session') return jsonResponse({ user: NEW_USER })
      return jsonResponse({ status: true })
    }),
  )
}

describe('after sign-up', () => {
  it('a new account lands on "Check your inbox", which then leads to the page it came from', async () => {
    const calls: Call[] = []
    stubApi(calls)
    renderWithApp(
      <Routes>
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/welcome" element={<Where />} />
      </Routes>,
      { at: `/signup?from=${encodeURIComponent('/products/p1')}` },
    )
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: NEW_USER.name } })
    fireEvent.input(screen.getByLabelText('Email Address'), { target: { value: NEW_USER.email } })
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'quiet-heron-77' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }))
    expect((await screen.findByTestId('where')).textContent).toBe(
      `/welcome?from=${encodeURIComponent('/products/p1')}`,
    )
    expect(calls.map((c) => c.url)).toContain('/api/auth/sign-up/email')
  })

  it("keeps the seed's short-password message word for word", async () => {
    stubApi([])
    renderWithApp(<SignupPage />, { at: '/signup' })
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: '12345' } })
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }))
    expect(await screen.findByText('Password must be 6 character or longer')).toBeTruthy()
  })

  it('says where the link went, greets the person as new and sends the link again on request', async () => {
    const calls: Call[] = []
    stubApi(calls)
    renderWithApp(<CheckInboxPage />, { at: `/welcome?from=${encodeURIComponent('/products/p1')}` })
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your inbox' })).toBeTruthy()
    expect(screen.getByText('Welcome to Laptop Market, Nia New.')).toBeTruthy()
    expect(screen.getByText(NEW_USER.email)).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/products/p1')
    fireEvent.click(screen.getByRole('button', { name: 'Send the link again' }))
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Sent. Check your inbox for the newest email from Laptop Market.',
      ),
    )
    expect(calls.find((c) => c.url === '/api/auth/send-verification-email')?.body).toMatchObject({
      email: NEW_USER.email,
    })
  })
})
