import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse, renderWithApp } from '../../test/render'
import { LoginPage, loginReason } from './login-page'

const ASUS = { _id: 'asus-1', brand_name: 'ASUS', brand_img: '', product_count: 4 }

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('LoginPage', () => {
  it('tells a visitor sent from a brand page why they must log in', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => (url === '/api/brands' ? jsonResponse([ASUS]) : jsonResponse(null))),
    )
    renderWithApp(<LoginPage />, { at: `/login?from=${encodeURIComponent('/category/asus-1')}` })
    expect(await screen.findByText('Log in to see ASUS laptops.')).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: 'Login' })).toBeTruthy()
  })

  it('says nothing more to someone who came to log in of their own accord', () => {
    expect(loginReason('/', () => 'ASUS')).toBeNull()
    expect(loginReason('/category/x', () => undefined)).toBe('Log in to see the laptops of this brand.')
    expect(loginReason('/dashboard/myorders', () => undefined)).toBe(
      'Log in to continue to the page you opened.',
    )
  })

  it('puts the keyboard in the code field when the code step shows, and again for a backup code', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(null)),
    )
    renderWithApp(<LoginPage />, { at: '/login?step=code' })
    const code = await screen.findByLabelText('Code')
    expect(document.activeElement).toBe(code)
    fireEvent.click(screen.getByRole('button', { name: 'Use a backup code instead' }))
    expect(document.activeElement).toBe(screen.getByLabelText('Backup code'))
  })
})
