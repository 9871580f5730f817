import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { ALERT_CHOICES, ALERT_LABELS, type AlertChoice } from '#contract/favourites'
import { paths } from '#contract/pages'
import { NEW_COUNT_CAP, type SavedSearch } from '#contract/saved-searches'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { toast } from '../../lib/toast'
import { deleteSavedSearch, setSavedSearchAlert, useSavedSearches } from './saved-searches-api'

const newLabel = (n: number) => (n >= NEW_COUNT_CAP ? `${NEW_COUNT_CAP - 1}+ new` : `${n} new`)

function SavedSearchRow({ search, onChanged }: { search: SavedSearch; onChanged: () => void }) {
  const [alert, setAlert] = useState<AlertChoice>(search.alert)
  const [isDeleting, setIsDeleting] = useState(false)
  const [confirm, setConfirm] = useState(false)

  async function changeAlert(next: AlertChoice) {
    setAlert(next)
    try {
      await setSavedSearchAlert(search._id, next)
      toast.success('Alert settings saved')
    } catch (err) {
      setAlert(search.alert)
      toast.error(errorMessage(err, 'Could not save your choice. Please try again.'))
    }
  }

  async function remove() {
    setIsDeleting(true)
    try {
      await deleteSavedSearch(search._id)
      toast.success('Saved search deleted')
      onChanged()
    } catch (err) {
      toast.error(errorMessage(err, 'Could not delete it. Please try again.'))
    } finally {
      setIsDeleting(false)
      setConfirm(false)
    }
  }

  return (
    <li data-testid="saved-search" className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <Link
            to={paths.savedSearch(search._id, search.query)}
            className="font-semibold text-slate-900 hover:text-accent hover:underline"
          >
            {search.label}
          </Link>
          <p className="flex flex-wrap items-center gap-2 text-slate-600 text-sm">
            {search.newCount > 0 ? (
              <Badge tone="accent">{newLabel(search.newCount)}</Badge>
            ) : (
              <span>Nothing new</span>
            )}
            <span>since {formatDate(search.lastVisitedAt)}</span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <label className="flex items-center gap-2 text-slate-700 text-sm">
            <span className="sr-only">Alerts for {search.label}</span>
            <select
              value={alert}
              onChange={(e) => changeAlert(e.target.value as AlertChoice)}
              className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm"
            >
              {ALERT_CHOICES.map((c) => (
                <option key={c} value={c}>
                  {ALERT_LABELS[c]}
                </option>
              ))}
            </select>
          </label>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setConfirm(true)}
            aria-label={`Delete ${search.label}`}
          >
            <Trash2 aria-hidden="true" className="size-4" />
          </Button>
        </div>
      </div>
      {confirm ? (
        <ConfirmDialog
          title="Delete this saved search?"
          description={`“${search.label}” and its alerts stop. You can save it again from the search page.`}
          isPending={isDeleting}
          onConfirm={remove}
          onCancel={() => setConfirm(false)}
        />
      ) : null}
    </li>
  )
}

/** `/dashboard/saved-searches`: the user's saved searches with their new matches and alerts. */
export function SavedSearchesPage() {
  const list = useSavedSearches()
  return (
    <>
      <title>Saved searches · Laptop Market</title>
      <PageHeader title="Saved searches">
        <p>
          Searches you keep, with the laptops posted since you last looked. Open one to see them marked New.
        </p>
      </PageHeader>
      <QueryState
        query={list}
        errorTitle="Could not load your saved searches"
        loading={
          <div className="space-y-3" aria-busy="true">
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-20 w-full" />
          </div>
        }
        empty={
          <Alert title="No saved searches yet">
            <p>
              Search for the laptop you want, then choose “Save this search”: we email you when a new one
              matches.
            </p>
            <Link to={paths.browse()} className="font-medium text-accent underline underline-offset-4">
              Search laptops
            </Link>
          </Alert>
        }
      >
        {(data) => (
          <ul className="space-y-3" aria-label="Your saved searches">
            {data.map((s) => (
              <SavedSearchRow key={s._id} search={s} onChanged={() => list.refetch()} />
            ))}
          </ul>
        )}
      </QueryState>
    </>
  )
}
