import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse, renderWithApp } from '../../test/render'
import { RequireAuth } from './require-auth'

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

function stubApi(_calls: unknown[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => jsonResponse(url === '/api/session' ? { user: BUYER } : {})),
  )
}

describe('a buyer on a seller page', () => {
  it('is offered "Start selling" instead of a dead end', async () => {
    stubApi([])
    renderWithApp(
      <RequireAuth roles={['seller']}>
        <p>Add a Product form</p>
      </RequireAuth>,
      { at: '/dashboard/addproduct' },
    )
    const link = await screen.findByRole('link', { name: 'Start selling' })
    expect(link.getAttribute('href')).toBe('/dashboard/start-selling')
    expect(screen.getByText(/This page is for seller accounts/)).toBeTruthy()
    expect(screen.queryByText('Add a Product form')).toBeNull()
  })
})
