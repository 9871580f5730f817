import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { CancelSaleBody, ProblemBody } from '#contract/bookings'
import { AdminRefundBody } from '#contract/refunds'
import { ApiError } from '../lib/api-client'
import { useReasonField } from './reason-field'

afterEach(cleanup)

type Body = typeof ProblemBody | typeof CancelSaleBody | typeof AdminRefundBody

/** A dialog's reason, as each of the deal's dialogs draws it, with the send step and the server's refusal. */
function Harness({ body, maxLength, serverSays }: { body: Body; maxLength: number; serverSays?: string }) {
  const reason = useReasonField(body, { label: 'Why?', rows: 3, maxLength })
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

describe('the reason field of the deal’s dialogs', () => {
  it.each([
    ['a buyer’s problem', ProblemBody, 2000],
    ['a seller’s cancellation', CancelSaleBody, 500],
    ['an admin’s refund', AdminRefundBody, 500],
  ] as const)(
    'checks %s against its own call’s body before sending, in the contract’s words',
    (_, body, max) => {
      render(<Harness body={body} maxLength={max} />)
      const box = screen.getByLabelText('Why?') as HTMLTextAreaElement
      expect(box.maxLength).toBe(max)
      fireEvent.click(screen.getByRole('button', { name: 'Send' }))
      const expected = body.safeParse({ reason: '' })
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
})
