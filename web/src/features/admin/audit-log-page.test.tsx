import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AuditPage } from '#contract/audit'
import { jsonResponse, renderWithApp } from '../../test/render'
import { AuditLogPage } from './audit-log-page'

const PAGE: AuditPage = {
  items: [
    {
      id: 7,
      at: '2026-11-21T09:00:00.000Z',
      actor_email: 'admin@laptopmarket.test',
      kind: 'listing.remove',
      target: 'product:3f0c2a9e-1b7d-4c55-9a0e-6d2f8b1c4e77',
      target_label: 'ThinkPad X1 Carbon',
      ip: '203.0.113.9',
      user_agent: null,
      result: 'success',
      detail: null,
    },
  ],
  page: 1,
  page_size: 50,
  has_more: false,
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('AuditLogPage', () => {
  it('shows a failed load with Try again, which asks again and shows the entries', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        jsonResponse({ error: { code: 'INTERNAL', message: 'The log could not be read' } }, { status: 500 }),
      )
      .mockResolvedValue(jsonResponse(PAGE))
    vi.stubGlobal('fetch', fetchMock)
    renderWithApp(<AuditLogPage />)

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Could not load the audit log')
    expect(alert.textContent).toContain('The log could not be read')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))

    expect(await screen.findByText('admin@laptopmarket.test', { exact: false })).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(String(fetchMock.mock.calls[1]?.[0])).toMatch(/^\/api\/audit-log\?/)
  })

  it('names what each entry acted on, the id on hover; the id alone when the target has no name', async () => {
    const person = {
      ...PAGE.items[0],
      id: 8,
      kind: 'user.verify',
      target: 'user:Ag151xQ2',
      target_label: 'Avery Morgan (avery@example.com)',
    } as AuditPage['items'][number]
    const gone = { ...person, id: 9, target: 'passkey:k-1', target_label: null }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ ...PAGE, items: [...PAGE.items, person, gone] })),
    )
    renderWithApp(<AuditLogPage />)
    const listing = await screen.findByText('ThinkPad X1 Carbon')
    expect(listing.getAttribute('title')).toBe('product:3f0c2a9e-1b7d-4c55-9a0e-6d2f8b1c4e77')
    const named = screen.getByText('Avery Morgan (avery@example.com)')
    expect(named.getAttribute('title')).toBe('user:Ag151xQ2')
    expect(screen.queryByText(/on user:Ag151xQ2/)).toBeNull()
    expect(screen.getByText('passkey:k-1')).toBeTruthy()
  })

  it('says nothing matches when the filters find no entry', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ ...PAGE, items: [] })),
    )
    renderWithApp(<AuditLogPage />)
    expect(await screen.findByText('Nothing matches these filters')).toBeTruthy()
  })
})
