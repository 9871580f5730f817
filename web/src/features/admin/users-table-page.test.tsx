import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { UserRecord } from '#contract/users'
import { jsonResponse, renderWithApp } from '../../test/render'
import { UsersTablePage } from './users-table-page'

vi.mock('../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }))

const ME = { id: 'a1', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', verified: false }
const person = (id: string, name: string, role: UserRecord['role']): UserRecord => ({
  _id: id,
  name,
  email: `${id}@example.com`,
  role,
  verified: false,
  createdAt: '2026-11-03T09:30:00.000Z',
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function serve() {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url === '/api/session') return jsonResponse({ user: ME })
    if (init?.method === 'PUT' || init?.method === 'DELETE')
      return jsonResponse({ acknowledged: true, modifiedCount: 1 })
    if (url.startsWith('/api/buyers') && url.includes('role=admin')) {
      return jsonResponse([person('a1', 'Ada Admin', 'admin'), person('a2', 'Otto Admin', 'admin')], {
        headers: { 'x-total-count': '2' },
      })
    }
    if (url.startsWith('/api/buyers')) {
      return jsonResponse([person('b1', 'Bea Buyer', 'buyer')], { headers: { 'x-total-count': '1' } })
    }
    return jsonResponse([])
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

describe('All Buyers', () => {
  it('lists buyers apart from admins, and asks before Make Admin', async () => {
    const fetchMock = serve()
    renderWithApp(<UsersTablePage kind="buyer" />, { at: '/dashboard/allbuyers' })
    expect(await screen.findByText('Showing 1 buyer')).toBeTruthy()
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('role=buyer'))).toBe(true)
    fireEvent.click(screen.getAllByRole('button', { name: 'Make Admin Bea Buyer' })[0] as HTMLElement)
    const dialog = await screen.findByRole('dialog', { name: 'Make Bea Buyer an admin?' })
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Make Admin' }))
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/buyers/admin/b1',
        expect.objectContaining({ method: 'PUT' }),
      ),
    )
  })

  it('on Admins, offers Remove admin for others and nothing on the admin’s own row', async () => {
    const fetchMock = serve()
    renderWithApp(<UsersTablePage kind="buyer" />, { at: '/dashboard/allbuyers?role=admin' })
    expect(await screen.findByText('Showing 2 admins')).toBeTruthy()
    // The admin's own row reads "Ada Admin (you)", a space before the bracket, for every reader.
    expect(
      screen.getAllByText(
        (_, el) =>
          el?.textContent === 'Ada Admin (you)' &&
          ![...el.children].some((c) => c.textContent === 'Ada Admin (you)'),
      ).length,
    ).toBeGreaterThan(0)
    expect(screen.queryAllByText((_, el) => el?.textContent === 'Ada Admin(you)')).toHaveLength(0)
    expect(screen.queryAllByRole('button', { name: 'Delete Ada Admin' })).toHaveLength(0)
    expect(screen.queryAllByRole('button', { name: 'Remove admin Ada Admin' })).toHaveLength(0)
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove admin Otto Admin' })[0] as HTMLElement)
    const dialog = await screen.findByRole('dialog', { name: 'Remove Otto Admin as an admin?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove admin' }))
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/buyers/admin/a2',
        expect.objectContaining({ method: 'DELETE' }),
      ),
    )
  })
})
