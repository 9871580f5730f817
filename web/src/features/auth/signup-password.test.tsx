import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PASSWORD_MESSAGES } from '#contract/passwords'
import { jsonResponse, renderWithApp } from '../../test/render'
import { SignupPage } from './signup-page'

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } })
}

describe('the sign-up password, while it is typed', () => {
  it('says why a common password or one built from the name would be refused, and sends nothing', async () => {
    const fetch = vi.fn(async (_url: string) => jsonResponse(null))
    vi.stubGlobal('fetch', fetch)
    renderWithApp(<SignupPage />, { at: '/signup' })
    type('Name', 'Pat Parker')
    type('Email Address', 'pat@example.test')
    type('Password', 'password')
    // The word lists load with the first letters typed: on a busy machine that can take a few seconds.
    expect(await screen.findByText(PASSWORD_MESSAGES.common, undefined, { timeout: 10_000 })).toBeTruthy()
    type('Password', 'PatParker2024')
    expect(await screen.findByText(PASSWORD_MESSAGES.personal)).toBeTruthy()
    type('Password', 'quiet-heron-77')
    await waitFor(() => expect(screen.queryByText(PASSWORD_MESSAGES.personal)).toBeNull())

    type('Password', '123456')
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }))
    expect(await screen.findByText(PASSWORD_MESSAGES.common)).toBeTruthy()
    expect(fetch.mock.calls.some(([url]) => String(url).includes('sign-up'))).toBe(false)
  })
})
