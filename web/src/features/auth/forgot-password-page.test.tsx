import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse, renderWithApp } from '../../test/render'
import { ForgotPasswordPage } from './forgot-password-page'

// Anyone can use up an account's reset emails (a few per quarter hour), and the owner's own request is then
// not sent: the page says so to every address alike, so it reveals nothing about which accounts exist.

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

async function askFor(email: string) {
  fireEvent.input(screen.getByLabelText('Email Address'), { target: { value: email } })
  fireEvent.click(screen.getByRole('button', { name: 'Send me a reset link' }))
  return screen.findByRole('status')
}

describe('ForgotPasswordPage', () => {
  it('says reset emails are limited and how long to wait, the same for every address', async () => {
    const answer = {
      status: true,
      message: 'If this email exists in our system, check your email for the reset link',
    }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(answer)),
    )
    const texts: string[] = []
    for (const email of ['owner@example.test', 'nobody@example.test']) {
      renderWithApp(<ForgotPasswordPage />, { at: '/forgot-password' })
      const status = await askFor(email)
      expect(status.textContent).toContain('at most 3 reset emails to an address every 15 minutes')
      expect(status.textContent).toContain('wait 15 minutes')
      texts.push((status.textContent ?? '').replace(email, '<address>'))
      cleanup()
    }
    expect(texts[0]).toBe(texts[1])
  })
})
