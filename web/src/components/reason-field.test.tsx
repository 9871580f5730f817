import fs from 'node:fs'
import path from 'node:path'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { CancelSaleBody, ProblemBody } from '#contract/bookings'
import { AdminRefundBody } from '#contract/refunds'
import { DecideReturnBody, DeclineReturnBody, OpenReturnBody, ReturnBackBody } from '#contract/returns'
import { ApiError } from '../lib/api-client'
import { useReasonField } from './reason-field'

afterEach(cleanup)

const OpenReturnReason = OpenReturnBody.pick({ reason: true })

type Body =
  | typeof ProblemBody
  | typeof CancelSaleBody
  | typeof AdminRefundBody
  | typeof OpenReturnReason
  | typeof DeclineReturnBody
  | typeof DecideReturnBody

/** A dialog's reason, as each of the deal's dialogs draws it, with the send step and the server's refusal. */
function Harness({
  body,
  maxLength,
  serverSays,
  rest,
}: {
  body: Body
  maxLength: number
  serverSays?: string
  rest?: Record<string, unknown>
}) {
  const reason = useReasonField(body, { label: 'Why?', rows: 3, maxLength }, { with: rest })
  return (
    <div>
      {reason.field}
      <button
        type="button"
        onClick={() => {
          const said = reason.check()
          if (said !== null && serverSays) {
            reason.fromServer(new ApiError(400, 'VALIDATION', 'Bad input', { reason: serverSays }))
          }
        }}
      >
        Send
      </button>
      <p data-testid="sent">{reason.reason}</p>
    </div>
  )
}

/** A seller's "it came back otherwise": the field is the call's note. */
function Note() {
  const note = useReasonField(
    ReturnBackBody,
    { label: 'What is different?', rows: 3, maxLength: 2000 },
    { key: 'note', with: { as_sent: false } },
  )
  return (
    <div>
      {note.field}
      <button type="button" onClick={() => note.check()}>
        Send
      </button>
      <button
        type="button"
        onClick={() => note.fromServer(new ApiError(400, 'VALIDATION', 'Bad input', { note: 'Too vague' }))}
      >
        Refused
      </button>
    </div>
  )
}

describe('the reason field of the deal’s dialogs', () => {
  it.each([
    ['a buyer’s problem', ProblemBody, 2000, undefined],
    ['a seller’s cancellation', CancelSaleBody, 500, undefined],
    ['an admin’s refund', AdminRefundBody, 500, undefined],
    ['a buyer’s return', OpenReturnReason, 2000, undefined],
    ['a seller’s decline of a return', DeclineReturnBody, 500, undefined],
    ['an admin’s decision on a return', DecideReturnBody, 500, { decision: 'refuse' }],
  ] as const)(
    'checks %s against its own call’s body before sending, in the contract’s words',
    (_, body, max, rest) => {
      render(<Harness body={body} maxLength={max} rest={rest} />)
      const box = screen.getByLabelText('Why?') as HTMLTextAreaElement
      expect(box.maxLength).toBe(max)
      fireEvent.click(screen.getByRole('button', { name: 'Send' }))
      const expected = body.safeParse({ ...rest, reason: '' })
      expect(expected.success).toBe(false)
      const message = expected.success ? '' : (expected.error.issues[0]?.message ?? '')
      expect(screen.getByText(message)).toBeTruthy()
      expect(box.getAttribute('aria-invalid')).toBe('true')
      // Typing takes the message away.
      fireEvent.change(box, { target: { value: 'The battery does not hold a charge at all.' } })
      expect(screen.queryByText(message)).toBeNull()
    },
  )

  it('shows the server’s word on the reason under the field', () => {
    render(<Harness body={ProblemBody} maxLength={2000} serverSays="Say a little more about what is wrong" />)
    fireEvent.change(screen.getByLabelText('Why?'), {
      target: { value: 'The screen flickers when the lid moves.' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(screen.getByText('Say a little more about what is wrong')).toBeTruthy()
  })

  it('checks a note the call names instead of a reason (a seller’s "it came back otherwise")', () => {
    render(<Note />)
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(screen.getByText('Say what is different, in at least 10 characters')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Refused' }))
    expect(screen.getByText('Too vague')).toBeTruthy()
  })

  it('is the only reason field the deal’s dialogs draw: none of them keeps its own textarea for a reason', () => {
    const web = path.resolve(import.meta.dirname, '..')
    // The dialogs of a deal that ask for a reason or a note, and the textareas they may draw themselves (the
    // seller's optional handover note is not a reason).
    const own: Record<string, number> = {
      'features/buying/deal-actions.tsx': 1,
      'features/buying/return-panel.tsx': 0,
      'features/admin/disputes-page.tsx': 0,
      'features/admin/finance-page.tsx': 0,
      'features/admin/returns-page.tsx': 0,
      'features/admin/refund-reason.tsx': 0,
    }
    const drawn = Object.fromEntries(
      Object.keys(own).map((file) => [
        file,
        (fs.readFileSync(path.join(web, file), 'utf8').match(/<textarea/g) ?? []).length,
      ]),
    )
    expect(drawn).toEqual(own)
  })
})
