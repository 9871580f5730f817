import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { handleStepUps } from '../../lib/api-client'

// The dialog's code loads the first time a change asks for it; every page holds only this small host.
const ConfirmItsYouDialog = lazy(() =>
  import('./confirm-its-you-dialog').then((m) => ({ default: m.ConfirmItsYouDialog })),
)

type Pending = { message: string; answer: Promise<boolean>; resolve: (confirmed: boolean) => void }

/**
 * Listens for a change the server refused for want of a fresh step-up (403 STEP_UP_REQUIRED) and asks "Confirm
 * it's you"; the API client makes the call again once confirmed. Calls refused while the dialog is open wait for
 * the same answer.
 */
export function ConfirmItsYouHost() {
  const [pending, setPending] = useState<Pending | null>(null)
  const current = useRef<Pending | null>(null)

  useEffect(
    () =>
      handleStepUps((message) => {
        if (current.current) return current.current.answer
        let resolve: (confirmed: boolean) => void = () => undefined
        const answer = new Promise<boolean>((r) => {
          resolve = r
        })
        const next = { message, answer, resolve }
        current.current = next
        setPending(next)
        return answer
      }),
    [],
  )

  if (!pending) return null
  const done = (confirmed: boolean) => {
    current.current = null
    setPending(null)
    pending.resolve(confirmed)
  }
  return (
    <Suspense fallback={null}>
      <ConfirmItsYouDialog onConfirmed={() => done(true)} onCancel={() => done(false)} />
    </Suspense>
  )
}
