import { plural } from '#contract/plural'
import { LoadFailed } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Skeleton } from '../../components/ui/skeleton'
import { Link } from '../../lib/bindings'
import { useBrands } from './brands-api'

// Three across even on a phone, so the brands take two or three rows rather than five.
const GRID = 'grid grid-cols-3 gap-2 sm:gap-3 lg:grid-cols-6'

/** Every brand as a tile: logo, name, how many laptops are for sale, linking to its category page. */
export function BrandList() {
  const { data: brands, isPending, error, refetch } = useBrands()

  if (isPending) {
    return (
      <div className={GRID} aria-busy="true">
        <span className="sr-only" role="status">
          Loading brands
        </span>
        {Array.from({ length: 6 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <Skeleton key={i} className="h-32 rounded-xl" />
        ))}
      </div>
    )
  }
  if (error) {
    return <LoadFailed title="We could not load the brands" error={error} onRetry={() => refetch()} />
  }
  if (brands.length === 0)
    return <Alert title="No brands yet">Brands appear here once sellers list laptops.</Alert>

  return (
    <ul className={GRID}>
      {brands.map((brand) => (
        <li key={brand._id} className="flex">
          <Link
            to={`/category/${brand._id}`}
            className="flex w-full flex-col items-center gap-2 rounded-xl border border-slate-200 bg-white px-2 py-3 text-center shadow-sm transition hover:border-accent hover:shadow-md sm:p-4"
          >
            <img
              src={brand.brand_img}
              alt={`${brand.brand_name} logo`}
              width={96}
              height={48}
              loading="lazy"
              decoding="async"
              className="h-10 w-full max-w-24 object-contain sm:h-12"
            />
            <span className="break-words font-semibold text-slate-900 text-sm sm:text-base">
              {brand.brand_name}
            </span>
            <span className="text-slate-600 text-xs">{plural(brand.product_count, 'laptop')}</span>
          </Link>
        </li>
      ))}
    </ul>
  )
}
