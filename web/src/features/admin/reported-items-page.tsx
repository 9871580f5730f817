import { useState } from 'react'
import { Link } from 'react-router'
import { paths } from '#contract/pages'
import type { Report } from '#contract/reports'
import { ProductImage } from '../../components/product/product-image'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { ListSkeleton } from '../../components/ui/list-skeleton'
import { PageHeader } from '../../components/ui/page-header'
import { errorMessage } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { toast } from '../../lib/toast'
import { ReportedMessages } from '../messages'
import { ReportedReviews } from '../sellers'
import { useOpenReports, useResolveReport } from './reports-api'

/** `/dashboard/reportedItems`: open reports, newest first, to dismiss or act on by removing the listing. */
export function ReportedItemsPage() {
  const reports = useOpenReports()
  const resolve = useResolveReport()
  const [toRemove, setToRemove] = useState<Report | null>(null)

  function onError(err: unknown) {
    toast.error(errorMessage(err))
  }

  function dismiss(report: Report) {
    resolve.mutate(
      { report, action: 'dismiss' },
      { onSuccess: () => toast.success('Report dismissed'), onError },
    )
  }

  function confirmRemove() {
    if (!toRemove) return
    resolve.mutate(
      { report: toRemove, action: 'remove' },
      {
        onSuccess: () => toast.success(`${toRemove.productName} was removed`),
        onError,
        onSettled: () => setToRemove(null),
      },
    )
  }

  return (
    <>
      <title>Reported Items · Laptop Market</title>
      <PageHeader title="Reported Items" />
      <QueryState
        query={reports}
        errorTitle="Could not load the reports"
        loading={<ListSkeleton label="Loading reports" />}
        empty={
          <Alert title="No open reports">
            <p>When someone reports a listing, it shows here for you to review.</p>
          </Alert>
        }
      >
        {(data) => (
          <ul className="space-y-4">
            {data.map((report) => {
              const isBusy = resolve.isPending && resolve.variables?.report._id === report._id
              return (
                <li key={report._id}>
                  <article
                    aria-labelledby={`report-${report._id}`}
                    className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row"
                  >
                    <Link to={paths.product(report.productId)} className="shrink-0 self-start">
                      <ProductImage
                        src={report.productImage}
                        alt={report.productName}
                        width={160}
                        height={120}
                        className="aspect-[4/3] w-full rounded-lg bg-slate-100 object-cover sm:w-40"
                      />
                    </Link>
                    <div className="min-w-0 flex-1 space-y-2">
                      <h2 id={`report-${report._id}`} className="font-semibold text-lg text-slate-900">
                        <Link
                          to={paths.product(report.productId)}
                          className="hover:text-accent hover:underline"
                        >
                          {report.productName}
                        </Link>
                      </h2>
                      <p className="text-slate-600 text-sm">Seller: {report.sellerName}</p>
                      <blockquote className="border-slate-300 border-l-4 pl-3 text-slate-800">
                        {report.reason}
                      </blockquote>
                      <p className="text-slate-600 text-sm">
                        Reported by {report.reporterName} ({report.reporterEmail}) on{' '}
                        <time dateTime={report.createdAt}>{formatDate(report.createdAt)}</time>
                      </p>
                      <div className="flex flex-wrap gap-2 pt-1">
                        <Button
                          size="sm"
                          variant="secondary"
                          onClick={() => dismiss(report)}
                          disabled={isBusy}
                          aria-label={`Dismiss the report on ${report.productName}`}
                        >
                          Dismiss
                        </Button>
                        <Button
                          size="sm"
                          variant="danger-outline"
                          onClick={() => setToRemove(report)}
                          disabled={isBusy}
                          aria-label={`Remove listing ${report.productName}`}
                        >
                          Remove listing
                        </Button>
                      </div>
                    </div>
                  </article>
                </li>
              )
            })}
          </ul>
        )}
      </QueryState>

      {toRemove ? (
        <ConfirmDialog
          title="Remove this listing?"
          description={
            <p>
              {toRemove.productName} will no longer be shown to anyone, and every open report on it will be
              closed.
            </p>
          }
          confirmLabel="Remove listing"
          isPending={resolve.isPending}
          onConfirm={confirmRemove}
          onCancel={() => setToRemove(null)}
        />
      ) : null}
      <ReportedReviews />
      <ReportedMessages />
    </>
  )
}
