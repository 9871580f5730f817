import { ChevronLeft, ChevronRight } from 'lucide-react'
import { useRef } from 'react'
import { useSearchParams } from 'react-router'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { cn } from '../../components/ui/cn'
import { PageHeader } from '../../components/ui/page-header'
import { useBrands } from '../brands/brands-api'
import { ProductFilters, SortSelect } from './product-filters'
import { ProductGrid } from './product-grid'
import { type ProductFilters as Filters, useProductSearch } from './products-api'
import { hasActiveFilters, readFilters, writeFilters } from './search-params'

/** `/productcard`: every available laptop, filtered and paged through the URL so a view can be shared. */
export function BrowsePage() {
  const [params, setParams] = useSearchParams()
  const filters = readFilters(params)
  const search = useProductSearch(filters)
  const brands = useBrands()
  const resultsRef = useRef<HTMLDivElement>(null)

  function applyFilters(next: Filters, options?: { replace?: boolean }) {
    setParams(writeFilters(next), { replace: options?.replace, preventScrollReset: true })
  }

  function goToPage(page: number) {
    applyFilters({ ...filters, page })
    resultsRef.current?.scrollIntoView({ block: 'start' })
  }

  const data = search.data
  const page = filters.page ?? 1
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1
  const isFiltered = hasActiveFilters(filters)

  return (
    <>
      <title>All Laptops · Laptop Market</title>
      <PageHeader title="All Laptops">
        <p>Every laptop for sale on Laptop Market. Narrow the list down, then share or bookmark the page.</p>
      </PageHeader>

      <ProductFilters filters={filters} brands={brands.data} onChange={applyFilters} />

      <div ref={resultsRef} className="mt-6 scroll-mt-20">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <div className="flex min-h-11 flex-wrap items-center gap-3">
            <p role="status" className="text-slate-700 text-sm">
              {data ? (data.total === 1 ? '1 laptop found' : `${data.total} laptops found`) : ''}
            </p>
            {isFiltered ? (
              <Button variant="ghost" size="sm" onClick={() => applyFilters({ sort: filters.sort })}>
                Clear filters
              </Button>
            ) : null}
          </div>
          <SortSelect
            value={filters.sort}
            onChange={(sort) => applyFilters({ ...filters, sort, page: undefined })}
          />
        </div>
        <div className={cn('transition-opacity', search.isPlaceholderData && 'opacity-60')}>
          <ProductGrid
            products={data?.items}
            isPending={search.isPending}
            error={search.error}
            onRetry={() => search.refetch()}
            headingLevel={2}
            empty={
              <Alert title={isFiltered ? 'No laptops match these filters' : 'No laptops for sale yet'}>
                {isFiltered ? (
                  <>
                    <p>Try a wider price range, another brand, or fewer filters.</p>
                    <Button variant="secondary" onClick={() => applyFilters({ sort: filters.sort })}>
                      Show every laptop
                    </Button>
                  </>
                ) : (
                  <p>New listings arrive every day. Please check back soon.</p>
                )}
              </Alert>
            }
          />
        </div>

        {data && data.total > 0 ? (
          <nav aria-label="Pagination" className="mt-8 flex items-center justify-between gap-3">
            <Button variant="secondary" disabled={page <= 1} onClick={() => goToPage(page - 1)}>
              <ChevronLeft aria-hidden="true" className="size-4" />
              Previous
            </Button>
            <p className="text-slate-700 text-sm">
              Page {page} of {pageCount}
            </p>
            <Button variant="secondary" disabled={page >= pageCount} onClick={() => goToPage(page + 1)}>
              Next
              <ChevronRight aria-hidden="true" className="size-4" />
            </Button>
          </nav>
        ) : null}
      </div>
    </>
  )
}
