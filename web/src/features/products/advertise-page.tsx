import { Link } from 'react-router'
import { Alert } from '../../components/ui/alert'
import { buttonClasses } from '../../components/ui/button'
import { PageHeader } from '../../components/ui/page-header'
import { useAdvertisedProducts } from './advertised-api'
import { ProductGrid } from './product-grid'

/** `/advertise`: every advertised laptop that is still for sale. */
export function AdvertisePage() {
  const { data, isPending, error, refetch } = useAdvertisedProducts()
  return (
    <>
      <title>Advertised Laptops · Laptop Market</title>
      <PageHeader title="Advertised Laptops">
        <p>Listings our sellers are featuring right now, newest first. Every one is still for sale.</p>
      </PageHeader>
      <ProductGrid
        products={data}
        isPending={isPending}
        error={error}
        onRetry={() => refetch()}
        headingLevel={2}
        empty={
          <Alert title="No advertised laptops right now">
            <p>Sellers feature new listings every week. Meanwhile, everything for sale is one click away.</p>
            <Link to="/productcard" className={buttonClasses('secondary')}>
              Browse all laptops
            </Link>
          </Alert>
        }
      />
    </>
  )
}
