import { BellPlus } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { ALERT_CHOICES, ALERT_LABELS, type AlertChoice } from '#contract/alert-choices'
import { paths } from '#contract/pages'
import { Button } from '../../components/ui/button'
import { errorMessage } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { useOnceSessionKnown, useSession } from '../auth'
import { saveSearch } from './saved-searches-api'

const HINTS: Record<AlertChoice, string> = {
  instant: 'An email when a new laptop matches, at most one an hour.',
  daily: 'One email a day with everything new.',
  off: 'No emails: see new matches in Saved searches.',
}

/**
 * "Save this search" on /productcard: keeps the page's filters (from the URL) with the alert the buyer picks.
 * Signed-out visitors sign in first and come back to the same search.
 */
export function SaveSearchButton({ query }: { query: string }) {
  const { user, isLoading } = useSession()
  const navigate = useNavigate()
  const location = useLocation()
  const [isOpen, setIsOpen] = useState(false)
  const [alert, setAlert] = useState<AlertChoice>('instant')
  const [isSaving, setIsSaving] = useState(false)
  const panelId = useId()

  const onClick = useOnceSessionKnown(isLoading, open)

  function open() {
    if (!user) {
      navigate(paths.login(`${location.pathname}${location.search}`))
      return
    }
    setIsOpen((v) => !v)
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    setIsSaving(true)
    try {
      await saveSearch(query, alert)
      setIsOpen(false)
      toast.success(
        alert === 'off'
          ? 'Search saved. Find it in Saved searches.'
          : 'Search saved. We will email you when new laptops match.',
      )
    } catch (err) {
      toast.error(errorMessage(err, 'Could not save this search. Please try again.'))
    } finally {
      setIsSaving(false)
    }
  }

  return (
    <div className="relative">
      <Button variant="secondary" onClick={onClick} aria-expanded={isOpen} aria-controls={panelId}>
        <BellPlus aria-hidden="true" className="size-4" />
        Save this search
      </Button>
      {isOpen ? (
        <form
          id={panelId}
          onSubmit={submit}
          className="absolute right-0 z-20 mt-2 w-80 max-w-[calc(100vw-2rem)] space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-lg"
        >
          <fieldset className="space-y-2">
            <legend className="mb-1 font-semibold text-slate-900 text-sm">Email me about new matches</legend>
            {ALERT_CHOICES.map((choice) => (
              <label
                key={choice}
                className="flex min-h-11 cursor-pointer items-start gap-3 rounded-lg p-2 hover:bg-slate-50"
              >
                <input
                  type="radio"
                  name="alert"
                  value={choice}
                  checked={alert === choice}
                  onChange={() => setAlert(choice)}
                  className="mt-1 size-4 accent-accent"
                />
                <span>
                  <span className="block font-medium text-slate-900 text-sm">{ALERT_LABELS[choice]}</span>
                  <span className="block text-slate-600 text-xs">{HINTS[choice]}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <div className="flex justify-end gap-2">
            <Button variant="ghost" size="sm" onClick={() => setIsOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" size="sm" disabled={isSaving}>
              {isSaving ? 'Saving…' : 'Save search'}
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  )
}
