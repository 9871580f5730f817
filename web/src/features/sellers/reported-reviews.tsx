import { Stars } from '../../components/product/seller-rating'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { ListSkeleton } from '../../components/ui/list-skeleton'
import { errorMessage } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useModerateReview, useReportedReviews } from './reviews-api'

/** The Reported Items page's section for reviews: remove one (it leaves the seller's rating) or dismiss. */
export function ReportedReviews() {
  const reported = useReportedReviews()
  const moderate = useModerateReview()

  function act(id: string, action: 'remove' | 'dismiss') {
    moderate.mutate(
      { id, action },
      {
        onSuccess: () => toast.success(action === 'remove' ? 'Review removed' : 'Reports dismissed'),
        onError: (err) => toast.error(errorMessage(err)),
      },
    )
  }

  return (
    <section aria-labelledby="reported-reviews" className="mt-10">
      <h2 id="reported-reviews" className="mb-4 font-semibold text-slate-900 text-xl">
        Reported reviews
      </h2>
      <QueryState
        query={reported}
        errorTitle="Could not load the reported reviews"
        loading={<ListSkeleton label="Loading reported reviews" />}
        empty={<Alert title="No reported reviews" />}
      >
        {(data) => (
          <ul className="space-y-4">
            {data.map((item) => {
              const isBusy = moderate.isPending && moderate.variables?.id === item._id
              return (
                <li
                  key={item._id}
                  className="rounded-xl border border-slate-200 bg-white p-4"
                  data-testid="reported-review"
                >
                  <p className="flex flex-wrap items-center gap-2 text-slate-900">
                    <Stars rating={item.review.rating} />
                    <span className="font-medium">{item.review.authorName}</span>
                    <span className="text-slate-600 text-sm">
                      about {item.review.authorRole === 'buyer' ? 'seller' : 'buyer'} {item.subjectName}
                    </span>
                  </p>
                  <p className="mt-2 whitespace-pre-line text-slate-800">{item.review.text}</p>
                  <ul className="mt-3 space-y-1 text-slate-600 text-sm">
                    {item.reports.map((r) => (
                      <li key={`${r.reporterEmail}-${r.createdAt}`}>
                        “{r.reason}”, reported by {r.reporterName} ({r.reporterEmail}) on{' '}
                        <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
                      </li>
                    ))}
                  </ul>
                  <div className="mt-3 flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={isBusy}
                      onClick={() => act(item._id, 'dismiss')}
                    >
                      Dismiss
                    </Button>
                    <Button
                      size="sm"
                      variant="danger-outline"
                      disabled={isBusy}
                      onClick={() => act(item._id, 'remove')}
                    >
                      Remove review
                    </Button>
                  </div>
                </li>
              )
            })}
          </ul>
        )}
      </QueryState>
    </section>
  )
}
