import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse, renderWithApp } from '../../test/render'
import { ReportDialog } from './report-dialog'

// "Report this listing" draws the one reason field (components/reason-field.tsx): the report's own rules are checked
// before anything is sent, and the server's word on the reason is shown under the field with the dialog kept open.

let answer: () => Response = () => jsonResponse({ acknowledged: true, insertedId: 'rep1' }, { status: 201 })
const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answer())
const posts = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([url, init]) => ({ url, body: JSON.parse(String(init?.body)) }))

beforeEach(() => {
  answer = () => jsonResponse({ acknowledged: true, insertedId: 'rep1' }, { status: 201 })
  fetchMock.mockClear()
  vi.stubGlobal('fetch', fetchMock)
  // jsdom has no modal dialogs: showModal opens it.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '')
  }
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open')
  }
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('Report this listing', () => {
  it('checks the reason by the report’s rules before sending, then sends it once', async () => {
    const onClose = vi.fn()
    renderWithApp(<ReportDialog productId="11111111-1111-4111-8111-111111111111" onClose={onClose} />)
    const dialog = await screen.findByRole('dialog', { name: 'Report this listing', hidden: true })
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'bad' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report', hidden: true }))
    expect(await within(dialog).findByText(/at least 10 characters/)).toBeTruthy()
    expect(within(dialog).getByLabelText('Reason').getAttribute('aria-invalid')).toBe('true')
    expect(posts()).toHaveLength(0)

    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'The photos are of another laptop entirely.' },
    })
    // Typing takes the message away.
    expect(within(dialog).queryByText(/at least 10 characters/)).toBeNull()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report', hidden: true }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(posts()).toEqual([
      {
        url: '/api/reports',
        body: {
          productId: '11111111-1111-4111-8111-111111111111',
          reason: 'The photos are of another laptop entirely.',
        },
      },
    ])
  })

  it('shows the server’s word on the reason under the field and keeps the dialog open', async () => {
    answer = () =>
      jsonResponse(
        {
          error: {
            code: 'VALIDATION_ERROR',
            message: 'Check the highlighted fields',
            fields: { reason: 'You reported this listing already' },
          },
        },
        { status: 400 },
      )
    const onClose = vi.fn()
    renderWithApp(<ReportDialog productId="11111111-1111-4111-8111-111111111111" onClose={onClose} />)
    const dialog = await screen.findByRole('dialog', { name: 'Report this listing', hidden: true })
    fireEvent.change(within(dialog).getByLabelText('Reason'), {
      target: { value: 'The photos are of another laptop entirely.' },
    })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report', hidden: true }))
    expect(await within(dialog).findByText('You reported this listing already')).toBeTruthy()
    expect(onClose).not.toHaveBeenCalled()
    expect(within(dialog).getByRole('button', { name: 'Send report', hidden: true })).toBeTruthy()
  })
})
