import { ChevronLeft, ChevronRight } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { formatCount, plural } from '#contract/plural'
import { Button, buttonClasses } from './button'
import { cn } from './cn'

/** The page numbers to offer: the first, the last, and two either side of the current one. */
export function pageWindow(page: number, pageCount: number): (number | 'gap')[] {
  const pages = new Set([1, pageCount])
  for (let p = page - 2; p <= page + 2; p++) if (p >= 1 && p <= pageCount) pages.add(p)
  const sorted = [...pages].sort((a, b) => a - b)
  const out: (number | 'gap')[] = []
  for (const p of sorted) {
    const last = out[out.length - 1]
    if (typeof last === 'number' && p - last > 1) out.push(p - last === 2 ? last + 1 : 'gap')
    out.push(p)
  }
  return out
}

function EdgeLink({
  href,
  rel,
  onNavigate,
  children,
}: {
  href: string | null | undefined
  rel: 'prev' | 'next'
  onNavigate?: () => void
  children: ReactNode
}) {
  return href ? (
    <Link to={href} rel={rel} onClick={onNavigate} className={buttonClasses('secondary')}>
      {children}
    </Link>
  ) : (
    // At either end: shown in place, dimmed, and not a link that goes nowhere.
    <span aria-disabled="true" className={buttonClasses('secondary')}>
      {children}
    </span>
  )
}

type PaginationProps = {
  page: number
  pageCount: number
  /** The address of a page: each one is a real link, so it can be opened in a new tab or shared. */
  hrefFor: (page: number) => string
  /** Called when a page link is followed (e.g. to scroll back to the top of the list). */
  onNavigate?: () => void
  className?: string
}

/** Previous, numbered pages and Next as links, with "Page X of Y". Nothing when there is one page. */
export function Pagination({ page, pageCount, hrefFor, onNavigate, className }: PaginationProps) {
  if (pageCount <= 1) return null
  return (
    <nav aria-label="Pagination" className={cn('mt-8 space-y-3', className)}>
      <div className="flex items-center justify-between gap-3">
        <EdgeLink href={page > 1 ? hrefFor(page - 1) : null} rel="prev" onNavigate={onNavigate}>
          <ChevronLeft aria-hidden="true" className="size-4" />
          Previous
        </EdgeLink>
        <p className="text-slate-700 text-sm">
          Page {formatCount(page)} of {formatCount(pageCount)}
        </p>
        <EdgeLink href={page < pageCount ? hrefFor(page + 1) : null} rel="next" onNavigate={onNavigate}>
          Next
          <ChevronRight aria-hidden="true" className="size-4" />
        </EdgeLink>
      </div>
      <ul className="flex flex-wrap items-center justify-center gap-1">
        {pageWindow(page, pageCount).map((p, i) =>
          p === 'gap' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a gap is only a position
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-slate-500">
              …
            </li>
          ) : (
            <li key={p}>
              <Link
                to={hrefFor(p)}
                onClick={onNavigate}
                aria-label={`Page ${formatCount(p)}`}
                aria-current={p === page ? 'page' : undefined}
                className={cn(
                  'inline-flex min-h-11 min-w-11 items-center justify-center rounded-lg px-2 font-semibold text-sm',
                  p === page
                    ? 'bg-accent text-white'
                    : 'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50',
                )}
              >
                {formatCount(p)}
              </Link>
            </li>
          ),
        )}
      </ul>
    </nav>
  )
}

type CursorPaginationProps = {
  /** Where the previous and next pages are; null at either end. */
  previousHref: string | null
  nextHref: string | null
  /** What sits between the two links, e.g. "Page 2". */
  status?: ReactNode
  onNavigate?: () => void
  className?: string
}

/** Previous and Next links for lists paged by a cursor, where page numbers cannot be jumped to. */
export function CursorPagination({
  previousHref,
  nextHref,
  status,
  onNavigate,
  className,
}: CursorPaginationProps) {
  if (!previousHref && !nextHref) return null
  return (
    <nav aria-label="Pagination" className={cn('mt-8 flex items-center justify-between gap-3', className)}>
      <EdgeLink href={previousHref} rel="prev" onNavigate={onNavigate}>
        <ChevronLeft aria-hidden="true" className="size-4" />
        Previous
      </EdgeLink>
      {status ? <p className="text-slate-700 text-sm">{status}</p> : null}
      <EdgeLink href={nextHref} rel="next" onNavigate={onNavigate}>
        Next
        <ChevronRight aria-hidden="true" className="size-4" />
      </EdgeLink>
    </nav>
  )
}

type LoadMoreProps = {
  shown: number
  /** How many there are in all, when known. */
  total?: number
  /** The noun for one, e.g. "laptop" (the count line says "1 laptop", "24 of 130 laptops"). */
  noun: string
  /** The noun for several, when not `noun` + "s". */
  nounPlural?: string
  hasMore: boolean
  isLoading: boolean
  onLoadMore: () => void
  className?: string
}

/** "Showing 24 of 130 laptops" and a Load more button while there is more to load. */
export function LoadMore({
  shown,
  total,
  noun,
  nounPlural,
  hasMore,
  isLoading,
  onLoadMore,
  className,
}: LoadMoreProps) {
  return (
    <div className={cn('mt-8 flex flex-col items-center gap-3', className)}>
      <p className="text-slate-700 text-sm" aria-live="polite">
        {total !== undefined
          ? total === shown
            ? `Showing ${plural(total, noun, nounPlural)}`
            : `Showing ${formatCount(shown)} of ${plural(total, noun, nounPlural)}`
          : `Showing ${plural(shown, noun, nounPlural)}`}
      </p>
      {hasMore ? (
        <Button variant="secondary" onClick={onLoadMore} disabled={isLoading} aria-busy={isLoading}>
          {isLoading ? 'Loading…' : 'Load more'}
        </Button>
      ) : null}
    </div>
  )
}
