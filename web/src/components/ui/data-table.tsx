import type { ReactNode } from 'react'
import { cn } from './cn'
import { Skeleton } from './skeleton'
import { useMediaQuery } from './use-media-query'

/**
 * Where a column's value goes on a phone card: `title` (the row's name, a row header in the table),
 * `aside` (beside the title, e.g. a status badge), `media` (a picture on the card's left), `field`
 * (a "label: value" line), `actions` (the buttons along the bottom) or `hidden`.
 */
export type CardSlot = 'title' | 'aside' | 'media' | 'field' | 'actions' | 'hidden'

export type Column<T> = {
  key: string
  header: string
  cell: (row: T) => ReactNode
  card?: CardSlot
  /** The header text is for screen readers only (an image or actions column). */
  hideHeader?: boolean
  align?: 'start' | 'end'
  className?: string
}

type DataTableProps<T> = {
  /** Names the table (its caption) and the list of cards. */
  caption: string
  rows: T[] | undefined
  rowKey: (row: T) => string
  columns: Column<T>[]
  /** The rows on screen are being replaced (the next page is loading). */
  isBusy?: boolean
  skeletonRows?: number
  /** data-testid of each row and card, for tests that pick one out. */
  rowTestId?: string
  /** At and above this width a table; below it, one card per row. */
  wideQuery?: string
}

const WIDE = '(min-width: 768px)'

/**
 * Rows of records: a table on wide screens, a list of cards on phones (where a table would need
 * sideways scrolling). Skeleton rows while `rows` is undefined.
 */
export function DataTable<T>({
  caption,
  rows,
  rowKey,
  columns,
  isBusy = false,
  skeletonRows = 5,
  rowTestId,
  wideQuery = WIDE,
}: DataTableProps<T>) {
  const isWide = useMediaQuery(wideQuery)
  return isWide ? (
    <Table
      caption={caption}
      rows={rows}
      rowKey={rowKey}
      columns={columns}
      isBusy={isBusy}
      skeletonRows={skeletonRows}
      rowTestId={rowTestId}
    />
  ) : (
    <Cards
      caption={caption}
      rows={rows}
      rowKey={rowKey}
      columns={columns}
      isBusy={isBusy}
      skeletonRows={Math.min(skeletonRows, 3)}
      rowTestId={rowTestId}
    />
  )
}

type PartProps<T> = Omit<DataTableProps<T>, 'wideQuery'> & { skeletonRows: number; isBusy: boolean }

function Table<T>({ caption, rows, rowKey, columns, isBusy, skeletonRows, rowTestId }: PartProps<T>) {
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className={cn('w-full text-left text-sm', isBusy && 'opacity-60')} aria-busy={isBusy || !rows}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-slate-200 border-b bg-slate-50 text-slate-700">
          <tr>
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={cn('px-4 py-3 font-semibold', column.align === 'end' && 'text-right')}
              >
                {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {!rows
            ? Array.from({ length: skeletonRows }, (_, n) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                <tr key={n}>
                  <td colSpan={columns.length} className="px-4 py-3">
                    <Skeleton className="h-6 w-full" />
                  </td>
                </tr>
              ))
            : rows.map((row) => (
                <tr key={rowKey(row)} data-testid={rowTestId} className="align-middle">
                  {columns.map((column) => (
                    <Cell key={column.key} column={column} row={row} />
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  )
}

function Cell<T>({ column, row }: { column: Column<T>; row: T }) {
  const classes = cn(
    'px-4 py-3',
    column.align === 'end' && 'text-right',
    column.card === 'title' && 'font-medium text-slate-900',
    column.className,
  )
  const content =
    column.card === 'actions' ? (
      <div className={cn('flex flex-wrap gap-2', column.align === 'end' && 'justify-end')}>
        {column.cell(row)}
      </div>
    ) : (
      column.cell(row)
    )
  return column.card === 'title' ? (
    <th scope="row" className={classes}>
      {content}
    </th>
  ) : (
    <td className={classes}>{content}</td>
  )
}

function Cards<T>({ caption, rows, rowKey, columns, isBusy, skeletonRows, rowTestId }: PartProps<T>) {
  if (!rows) {
    return (
      <ul className="space-y-3" aria-busy="true" aria-label={caption}>
        {Array.from({ length: skeletonRows }, (_, n) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <li key={n} className="rounded-xl border border-slate-200 bg-white p-4">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="mt-2 h-4 w-3/4" />
          </li>
        ))}
      </ul>
    )
  }
  const by = (slot: CardSlot) => columns.filter((c) => (c.card ?? 'field') === slot)
  const [title, aside, media, fields, actions] = [
    by('title'),
    by('aside'),
    by('media'),
    by('field'),
    by('actions'),
  ]
  return (
    <ul className={cn('space-y-3', isBusy && 'opacity-60')} aria-label={caption} aria-busy={isBusy}>
      {rows.map((row) => (
        <li
          key={rowKey(row)}
          data-testid={rowTestId}
          className="flex gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        >
          {media.map((c) => (
            <div key={c.key} className="w-20 shrink-0">
              {c.cell(row)}
            </div>
          ))}
          <div className="min-w-0 flex-1">
            <div className="flex items-start justify-between gap-3">
              <p className="min-w-0 font-semibold text-slate-900">
                {title.map((c) => (
                  <span key={c.key}>{c.cell(row)}</span>
                ))}
              </p>
              {aside.map((c) => (
                <div key={c.key} className="shrink-0">
                  {c.cell(row)}
                </div>
              ))}
            </div>
            {fields.length > 0 ? (
              <dl className="mt-1 space-y-0.5 text-slate-700 text-sm">
                {fields.map((c) => (
                  <div key={c.key} className="flex flex-wrap gap-x-1">
                    <dt className="text-slate-600">{c.header}:</dt>
                    <dd className="min-w-0 break-words">{c.cell(row)}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            {actions.length > 0 ? (
              <div className="mt-3 flex flex-wrap items-center gap-2">
                {actions.map((c) => (
                  <span key={c.key} className="contents">
                    {c.cell(row)}
                  </span>
                ))}
              </div>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  )
}
