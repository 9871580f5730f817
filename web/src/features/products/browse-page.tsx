import { SlidersHorizontal } from 'lucide-react'
import { useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { MAX_PAGE_DEPTH } from '#contract/paging-limits'
import type { Product } from '#contract/products'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { cn } from '../../components/ui/cn'
import { Drawer } from '../../components/ui/drawer'
import { PageHeader } from '../../components/ui/page-header'
import { CursorPagination, Pagination } from '../../components/ui/pagination'
import { useMediaQuery } from '../../components/ui/use-media-query'
import { formatCount, formatDate, plural } from '../../lib/format'
import { useSession } from '../auth'
import { useBrands } from '../brands'
import { SaveSearchButton, useSavedSearchVisit } from '../saved-searches'
import { ProductFilters, SortSelect } from './product-filters'
import { ProductGrid } from './product-grid'
import { type ProductFilters as Filters, type SearchResult, useProductSearch } from './products-api'
import {
  clearedFilters,
  countActiveFilters,
  defaultSort,
  hasActiveFilters,
  readFilters,
  withChange,
  writeFilters,
} from './search-params'

/** "1 laptop", "1,204 laptops", or "10,000+ laptops" when the server estimated the total. */
export function totalLabel(result: Pick<SearchResult, 'total' | 'total_is_estimate'>): string {
  if (result.total_is_estimate) return `${formatCount(result.total)}+ laptops`
  return plural(result.total, 'laptop')
}

/** The last page a search's results reach by page number. */
function lastPageOf(result: Pick<SearchResult, 'total' | 'page_size'>): number {
  const pageSize = Math.max(1, result.page_size)
  return Math.min(
    Math.max(1, Math.floor(MAX_PAGE_DEPTH / pageSize)),
    Math.max(1, Math.ceil(result.total / pageSize)),
  )
}

const href = (filters: Filters) => {
  const qs = writeFilters(filters).toString()
  return qs ? `?${qs}` : '?'
}

/** `/productcard`: every available laptop, filtered, sorted and paged through the URL so a view can be shared. */
export function BrowsePage() {
  const [params, setParams] = useSearchParams()
  const filters = readFilters(params)
  const search = useProductSearch(filters)
  const brands = useBrands()
  const resultsRef = useRef<HTMLDivElement>(null)
  const isWide = useMediaQuery('(min-width: 1024px)')
  const [isPanelOpen, setIsPanelOpen] = useState(false)

  function applyFilters(next: Filters, options?: { replace?: boolean }) {
    setParams(writeFilters(next), { replace: options?.replace, preventScrollReset: true })
  }
  const toTop = () => resultsRef.current?.scrollIntoView({ block: 'start' })

  const data = search.data
  const isFiltered = hasActiveFilters(filters)
  const activeCount = countActiveFilters(filters)
  const clear = () => applyFilters(clearedFilters(filters))
  // The search as a saved search keeps it: its filters and order, not its page.
  const { page: _page, cursor: _cursor, page_size: _size, ...kept } = filters
  const savedQuery = writeFilters(kept).toString()
  // Opened from Saved searches: laptops that came on sale since the last visit (posted, or approved later) are new.
  const savedSearchId = params.get('saved_search')
  const { user } = useSession()
  const visit = useSavedSearchVisit(savedSearchId, Boolean(user))
  const since = visit.data?.since
  const isNew = since ? (p: Product) => p.on_sale_since > since : undefined

  // A page number past the last page (an old link, a hand-typed ?page=99): the laptops are there, on earlier pages.
  const lastPage = data && data.items.length === 0 && data.total > 0 ? lastPageOf(data) : undefined

  const filterPanel = (
    <ProductFilters filters={filters} brands={brands.data} facets={data?.facets} onChange={applyFilters} />
  )

  return (
    <>
      <title>All Laptops · Laptop Market</title>
      <PageHeader title="All Laptops">
        <p>Every laptop for sale on Laptop Market. Narrow the list down, then share or bookmark the page.</p>
      </PageHeader>

      <div className="lg:grid lg:grid-cols-[16rem_1fr] lg:items-start lg:gap-8">
        {/* Shown by CSS, not by a media query in script, so the server's HTML has the right layout for every
            screen and nothing moves when the page hydrates. */}
        <aside
          aria-label="Filters"
          className="sticky top-20 hidden max-h-[calc(100dvh-6rem)] overflow-y-auto rounded-xl border border-slate-200 bg-white p-4 shadow-sm lg:block"
        >
          {filterPanel}
        </aside>

        <div ref={resultsRef} className="min-w-0 scroll-mt-24">
          <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
            <div className="flex min-h-11 flex-wrap items-center gap-3">
              <Button
                variant="secondary"
                className="lg:hidden"
                onClick={() => setIsPanelOpen(true)}
                aria-haspopup="dialog"
                aria-expanded={isPanelOpen}
              >
                <SlidersHorizontal aria-hidden="true" className="size-4" />
                Filters{activeCount > 0 ? ` (${activeCount})` : ''}
              </Button>
              <p role="status" className="text-slate-700 text-sm">
                {data ? `${totalLabel(data)} found` : ''}
              </p>
              {isFiltered ? (
                <Button variant="ghost" size="sm" onClick={clear}>
                  Clear filters
                </Button>
              ) : null}
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <SaveSearchButton query={savedQuery} />
              <SortSelect
                value={filters.sort ?? defaultSort(filters)}
                hasText={Boolean(filters.q)}
                onChange={(sort) => applyFilters(withChange(filters, { sort }))}
              />
            </div>
          </div>
          {since ? (
            <p
              className="mb-4 rounded-lg border border-teal-200 bg-teal-50 px-3 py-2 text-sm text-teal-900"
              data-testid="new-since"
            >
              Laptops posted since your last visit ({formatDate(since)}) are marked <strong>New</strong>.
            </p>
          ) : null}

          <div className={cn('transition-opacity', search.isPlaceholderData && 'opacity-60')}>
            <ProductGrid
              products={data?.items}
              isPending={search.isPending}
              error={search.error}
              onRetry={() => search.refetch()}
              headingLevel={2}
              isNew={isNew}
              empty={
                lastPage ? (
                  <Alert title={`Page ${formatCount(filters.page ?? 1)} is past the last page`}>
                    <p>{data ? `${totalLabel(data)} found, on ${plural(lastPage, 'page')}.` : null}</p>
                    <Link
                      to={href({
                        ...filters,
                        cursor: undefined,
                        page: lastPage === 1 ? undefined : lastPage,
                      })}
                      className="font-medium text-teal-700 underline underline-offset-2 hover:text-teal-900"
                    >
                      {`Go to the last page (page ${formatCount(lastPage)})`}
                    </Link>
                  </Alert>
                ) : (
                  <Alert title={isFiltered ? 'No laptops match these filters' : 'No laptops for sale yet'}>
                    {isFiltered ? (
                      <>
                        <p>Try other words, a wider price range, another brand, or fewer filters.</p>
                        <Button variant="secondary" onClick={clear}>
                          Clear filters
                        </Button>
                      </>
                    ) : (
                      <p>New listings arrive every day. Please check back soon.</p>
                    )}
                  </Alert>
                )
              }
            />
          </div>

          {data && data.items.length > 0 ? (
            <ResultPages filters={filters} result={data} onNavigate={toTop} />
          ) : null}
        </div>
      </div>

      {isPanelOpen && !isWide ? (
        <Drawer
          title="Filters"
          onClose={() => setIsPanelOpen(false)}
          footer={
            <div className="flex gap-3">
              {isFiltered ? (
                <Button variant="secondary" className="flex-1" onClick={clear}>
                  Clear filters
                </Button>
              ) : null}
              <Button className="flex-1" onClick={() => setIsPanelOpen(false)}>
                {data ? `Show ${totalLabel(data)}` : 'Show laptops'}
              </Button>
            </div>
          }
        >
          {filterPanel}
        </Drawer>
      ) : null}
    </>
  )
}

/**
 * Numbered page links as deep as the server pages by number (10,000 listings); past that, and on a page
 * reached by cursor, Next follows the server's keyset cursor.
 */
function ResultPages({
  filters,
  result,
  onNavigate,
}: {
  filters: Filters
  result: SearchResult
  onNavigate: () => void
}) {
  const pageSize = Math.max(1, result.page_size)
  const page = filters.page ?? 1
  const byCursor = result.page === null
  const lastNumbered = Math.max(1, Math.floor(MAX_PAGE_DEPTH / pageSize))
  const pageCount = Math.min(lastNumbered, Math.max(1, Math.ceil(result.total / pageSize)))
  const cursorNext = result.next_cursor
    ? href({ ...filters, cursor: result.next_cursor, page: page + 1 })
    : null
  if (byCursor || (page >= lastNumbered && cursorNext)) {
    return (
      <CursorPagination
        previousHref={
          page > 1 && page - 1 <= lastNumbered
            ? href({ ...filters, cursor: undefined, page: page - 1 })
            : null
        }
        nextHref={cursorNext}
        status={`Page ${formatCount(page)}`}
        onNavigate={onNavigate}
      />
    )
  }
  return (
    <Pagination
      page={page}
      pageCount={result.total_is_estimate ? Math.max(pageCount, page) : pageCount}
      hrefFor={(p) => href({ ...filters, cursor: undefined, page: p })}
      onNavigate={onNavigate}
    />
  )
}
