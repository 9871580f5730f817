import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { BatteryReportFile } from '#contract/battery-reports'
import { LoadFailed } from '../../components/query-state'
import { api } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { adminKeys } from '../../lib/query-keys'

/**
 * The seller's battery report file as it was uploaded, opened on request. The figures on the listing were read
 * from it, but a text file can be written by hand: the admin judges it by its text.
 */
export function BatteryReportFileView({ productId }: { productId: string }) {
  const [isOpen, setIsOpen] = useState(false)
  const file = useQuery({
    queryKey: [...adminKeys.all, 'battery-report', productId],
    queryFn: ({ signal }) =>
      api.get<BatteryReportFile>(
        `/products/${encodeURIComponent(productId)}/battery-report`,
        undefined,
        signal,
      ),
    enabled: isOpen,
    staleTime: Number.POSITIVE_INFINITY,
  })
  return (
    <details
      className="rounded-lg border border-slate-200 p-3 text-sm"
      onToggle={(e) => setIsOpen(e.currentTarget.open)}
      data-testid="battery-report-file"
    >
      <summary className="cursor-pointer font-medium text-slate-900">Show the seller's report file</summary>
      {file.isPending ? (
        <p className="mt-2 text-slate-600">Loading the file…</p>
      ) : file.isError ? (
        <LoadFailed
          className="mt-2"
          title="Could not load the report file"
          error={file.error}
          onRetry={() => file.refetch()}
        />
      ) : (
        <>
          <p className="mt-2 text-slate-700">
            {file.data.file_name || 'Unnamed file'} · {file.data.source} report dated{' '}
            {formatDate(file.data.report_date)} · uploaded {formatDate(file.data.uploaded_at)}. Anyone can
            type such a file: check that it reads like the system's own output.
          </p>
          {/* Focusable, so the keyboard can scroll a long file too. */}
          <pre
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take the keyboard
            tabIndex={0}
            className="mt-2 max-h-80 overflow-auto whitespace-pre-wrap break-all rounded bg-slate-50 p-3 font-mono text-slate-800 text-xs"
          >
            {file.data.content}
          </pre>
        </>
      )}
    </details>
  )
}
