import { useEffect } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { paths } from '#contract/pages'
import { LoadFailed } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { buttonClasses } from '../../components/ui/button'
import { PageHeader } from '../../components/ui/page-header'
import { Spinner } from '../../components/ui/spinner'
import { allItems } from '../../lib/paged-list'
import { toast } from '../../lib/toast'
import { useSession } from '../auth'
import { useBrands } from '../brands'
import { ProductForm, type ProductSubmission } from './product-form'
import { useSellerProducts, useUpdateProduct, useUploadBatteryReport } from './selling-api'

/** `/dashboard/products/{id}/edit`: the add form, filled in with the listing, saved with PATCH. */
export function EditProductPage() {
  const { id = '' } = useParams()
  const { user } = useSession()
  const brands = useBrands()
  // The seller's own list carries the phone number, which the public listing leaves out.
  const products = useSellerProducts(user?.email)
  const listing = allItems(products.data)?.find((p) => p._id === id)
  const isLookingFurther = !listing && products.hasNextPage
  // The listing may sit on a later page of the seller's list: read on until it turns up.
  useEffect(() => {
    if (isLookingFurther && !products.isFetchingNextPage) void products.fetchNextPage()
  }, [isLookingFurther, products])
  const updateProduct = useUpdateProduct(id)
  const uploadReport = useUploadBatteryReport()
  const navigate = useNavigate()

  async function saveProduct(values: ProductSubmission, batteryReport?: File) {
    const answer = await updateProduct.mutateAsync(values)
    for (const notice of answer.notices ?? []) toast.success(notice)
    if (batteryReport) {
      // A refused report keeps the seller here, with the reason, to fix and try again.
      const facts = await uploadReport.mutateAsync({ id, file: batteryReport })
      for (const notice of facts.notices) toast.success(notice)
    }
    toast.success('Product updated Successfully')
    navigate(paths.myProduct())
  }

  const backLink = (
    <Link to={paths.myProduct()} className={buttonClasses('secondary', 'md')}>
      Back to My Product
    </Link>
  )

  function body() {
    const error = products.error ?? brands.error
    if (error) {
      return (
        <LoadFailed
          title="We could not load this listing"
          error={error}
          onRetry={() => {
            void products.refetch()
            void brands.refetch()
          }}
        />
      )
    }
    if (products.isPending || isLookingFurther || !brands.data || !user)
      return <Spinner label="Loading the listing" />
    if (!listing) {
      return (
        <Alert title="Product not found">
          <p>This laptop is not among your listings: it may have been deleted.</p>
          {backLink}
        </Alert>
      )
    }
    if (listing.sellStatus) {
      return (
        <Alert title="A sold laptop cannot be edited">
          <p>{listing.name} has been sold, so its listing stays as the buyer saw it.</p>
          {backLink}
        </Alert>
      )
    }
    return (
      <ProductForm
        key={listing._id}
        seller={{ name: user.name, email: user.email }}
        brands={brands.data}
        product={listing}
        submitLabel="Save changes"
        onSubmit={saveProduct}
      />
    )
  }

  return (
    <>
      <title>Edit product · Laptop Market</title>
      <PageHeader title="Edit product">{listing ? <p>{listing.name}</p> : null}</PageHeader>
      {body()}
    </>
  )
}
