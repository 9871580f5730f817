import { useId } from 'react'
import {
  checkLabel,
  checkProblem,
  HANDOVER_CHECKS,
  type HandoverCheckKey,
  type HandoverChecklist as Ticks,
} from '#contract/handover'
import { GuideLink } from '../../components/guide-link'

export const NOTHING_TICKED = Object.fromEntries(HANDOVER_CHECKS.map((c) => [c.key, false])) as Ticks

/**
 * What a careful buyer checks before "Received, as described", each with how; an item left unticked offers
 * "Report a problem" with its reason filled in.
 */
export function HandoverChecklist({
  serialLast4,
  ticks,
  onChange,
  onProblem,
}: {
  serialLast4: string | null | undefined
  ticks: Ticks
  onChange: (ticks: Ticks) => void
  /** "Report a problem" on an unticked item, with the reason it starts with. */
  onProblem: (reason: string) => void
}) {
  const id = useId()
  return (
    <fieldset className="space-y-3" data-testid="handover-checklist">
      <legend className="mb-2 font-medium text-slate-900">Before you confirm, check each of these:</legend>
      <p className="text-slate-700 text-sm">
        How to check each, and what else to look at: <GuideLink slug="handover-checklist" />.
      </p>
      {HANDOVER_CHECKS.map((check) => {
        const boxId = `${id}-${check.key}`
        const ticked = ticks[check.key as HandoverCheckKey]
        return (
          <div key={check.key} className="rounded-lg border border-slate-200 p-3">
            <div className="flex items-start gap-3">
              <input
                id={boxId}
                type="checkbox"
                className="mt-1 size-5 shrink-0 accent-[var(--color-accent,#2563eb)]"
                checked={ticked}
                aria-describedby={`${boxId}-how`}
                onChange={(e) => onChange({ ...ticks, [check.key]: e.currentTarget.checked })}
              />
              <div className="min-w-0 space-y-1">
                <label htmlFor={boxId} className="font-medium text-slate-900">
                  {checkLabel(check, serialLast4)}
                </label>
                <p id={`${boxId}-how`} className="text-slate-600 text-xs">
                  {check.how}
                </p>
                {ticked ? null : (
                  <button
                    type="button"
                    className="font-medium text-red-700 text-xs underline underline-offset-2 hover:text-red-900"
                    onClick={() => onProblem(checkProblem(check, serialLast4))}
                  >
                    Report a problem<span className="sr-only">: {checkLabel(check, serialLast4)}</span>
                  </button>
                )}
              </div>
            </div>
          </div>
        )
      })}
    </fieldset>
  )
}
