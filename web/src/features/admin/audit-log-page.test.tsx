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
      target: 'ThinkPad X1 Carbon',
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

  it('says nothing matches when the filters find no entry', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ ...PAGE, items: [] })),
    )
    renderWithApp(<AuditLogPage />)
    expect(await screen.findByText('Nothing matches these filters')).toBeTruthy()
  })
})
