import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { Route, Routes, useLocation } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse, renderWithApp } from '../../test/render'
import { StartSellingPage } from './start-selling-page'

const BUYER = {
  id: 'b1',
  name: 'Bo Buyer',
  email: 'bo@example.test',
  role: 'buyer',
  verified: false,
  buys: true,
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function Where() {
  const location = useLocation()
  return <p data-testid="where">{location.pathname}</p>
}

function stubApi(calls: { url: string; body: unknown }[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined })
      if (url === '/api/session') return jsonResponse({ user: BUYER })
      return jsonResponse({ acknowledged: true, modifiedCount: 1 })
    }),
  )
}

describe('StartSellingPage', () => {
  it('asks for a phone and the seller terms, then sends the buyer on to Add a Product', async () => {
    const calls: { url: string; body: unknown }[] = []
    stubApi(calls)
    renderWithApp(
      <Routes>
        <Route path="/dashboard/start-selling" element={<StartSellingPage />} />
        <Route path="/dashboard/addproduct" element={<Where />} />
      </Routes>,
      { at: '/dashboard/start-selling' },
    )
    const phone = await screen.findByLabelText('Phone number')
    fireEvent.input(phone, { target: { value: '(312) 555-0187' } })
    fireEvent.click(screen.getByRole('button', { name: 'Start selling' }))
    expect(await screen.findByText('Please accept the seller terms')).toBeTruthy()
    expect(calls.some((c) => c.url === '/api/me/start-selling')).toBe(false)

    fireEvent.click(screen.getByRole('checkbox'))
    fireEvent.click(screen.getByRole('button', { name: 'Start selling' }))
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/dashboard/addproduct'))
    expect(calls.find((c) => c.url === '/api/me/start-selling')?.body).toEqual({
      phone: '(312) 555-0187',
      accept_terms: true,
    })
  })
})
