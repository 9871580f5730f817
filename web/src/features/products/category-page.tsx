import { Link, useParams } from 'react-router'
import { paths } from '#contract/pages'
import { Alert } from '../../components/ui/alert'
import { buttonClasses } from '../../components/ui/button'
import { PageHeader } from '../../components/ui/page-header'
import { LoadMore } from '../../components/ui/pagination'
import { Skeleton } from '../../components/ui/skeleton'
import { isApiError } from '../../lib/api-client'
import { allItems } from '../../lib/paged-list'
import { useBrands } from '../brands'
import { BookNowButton } from '../buying'
import { ProductGrid } from './product-grid'
import { useBrandProducts } from './products-api'

/**
 * `/category/{id}`: the available laptops of one brand, each with Book Now; for signed-in users only (the router
 * wraps it in RequireAuth).
 */
export function CategoryPage() {
  const { id = '' } = useParams()
  const products = useBrandProducts(id)
  const brands = useBrands()
  const brand = brands.data?.find((b) => b._id === id)
  const items = allItems(products.data)
  const lastPage = products.data?.pages.at(-1)

  // A malformed id (400) is as unknown as a missing one (404).
  const isUnknownBrand =
    isApiError(products.error) && (products.error.status === 404 || products.error.status === 400)

  if (isUnknownBrand) {
    return (
      <>
        <title>Brand not found · Laptop Market</title>
        <div className="mx-auto max-w-lg py-12 text-center">
          <h1 className="font-bold text-3xl text-slate-900">Brand not found</h1>
          <p className="mt-3 text-slate-600">
            We have no brand at this address. It may have been removed, or the link may be mistyped.
          </p>
          <Link to={paths.home()} className={buttonClasses('primary', 'md', 'mt-6')}>
            Back to home
          </Link>
        </div>
      </>
    )
  }

  return (
    <>
      <title>{`${brand ? `${brand.brand_name} laptops` : 'Laptops by brand'} · Laptop Market`}</title>
      <PageHeader title="Select Your Favourite Laptop">
        {brand ? (
          <p className="flex items-center gap-3">
            <img
              src={brand.brand_img}
              alt={`${brand.brand_name} logo`}
              width={32}
              height={32}
              // A logo is seldom square: it keeps its shape inside the square (a picture is stretched to fill it).
              className="size-8 object-contain"
            />
            <span>
              <span className="font-semibold text-slate-900">{brand.brand_name}</span> laptops for sale,
              newest first.
            </span>
          </p>
        ) : brands.isPending ? (
          <Skeleton className="h-7 w-64" />
        ) : null}
      </PageHeader>
      <ProductGrid
        products={items}
        isPending={products.isPending}
        error={products.error}
        onRetry={() => products.refetch()}
        headingLevel={2}
        label={brand ? `${brand.brand_name} laptops` : undefined}
        renderAction={(product) => <BookNowButton product={product} className="w-full" />}
        empty={
          <Alert title="Nothing for sale from this brand right now">
            <p>New listings arrive every day. Meanwhile, see what else is on offer.</p>
            <Link to={paths.browse()} className={buttonClasses('secondary')}>
              Browse all laptops
            </Link>
          </Alert>
        }
      />
      {items && items.length > 0 ? (
        <LoadMore
          shown={items.length}
          total={lastPage?.total}
          noun="laptop"
          hasMore={products.hasNextPage}
          isLoading={products.isFetchingNextPage}
          onLoadMore={() => products.fetchNextPage()}
        />
      ) : null}
    </>
  )
}
