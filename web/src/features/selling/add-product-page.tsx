import { useNavigate } from 'react-router'
import { paths } from '#contract/pages'
import { LoadFailed } from '../../components/query-state'
import { PageHeader } from '../../components/ui/page-header'
import { Spinner } from '../../components/ui/spinner'
import { errorMessage } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { useSession } from '../auth'
import { useBrands } from '../brands'
import { ProductForm, type ProductSubmission } from './product-form'
import { useCreateProduct, useUploadBatteryReport } from './selling-api'

/** `/dashboard/addproduct`: a seller lists a laptop, then goes to My Product to see it. */
export function AddProductPage() {
  const { user } = useSession()
  const brands = useBrands()
  const createProduct = useCreateProduct()
  const uploadReport = useUploadBatteryReport()
  const navigate = useNavigate()

  async function addProduct(values: ProductSubmission, batteryReport?: File) {
    const { insertedId } = await createProduct.mutateAsync(values)
    toast.success('Product added Successfully')
    if (batteryReport) {
      try {
        const facts = await uploadReport.mutateAsync({ id: insertedId, file: batteryReport })
        for (const notice of facts.notices) toast.success(notice)
      } catch (err) {
        // The listing is saved; the seller fixes what the report needs on its edit page.
        toast.error(`The listing is saved, but the battery report was not taken: ${errorMessage(err)}`)
        navigate(paths.editProduct(insertedId))
        return
      }
    }
    navigate('/dashboard/myproduct')
  }

  return (
    <>
      <title>Add a Product · Laptop Market</title>
      <PageHeader title="Add a Product">
        <p>List a laptop with clear photos and exact specs: buyers filter by them.</p>
      </PageHeader>
      {brands.isError ? (
        <LoadFailed
          title="We could not load the brands"
          error={brands.error}
          onRetry={() => brands.refetch()}
        />
      ) : brands.isPending || !user ? (
        <Spinner label="Loading the form" />
      ) : (
        <ProductForm
          seller={{ name: user.name, email: user.email }}
          brands={brands.data}
          submitLabel="Add Product"
          onSubmit={addProduct}
        />
      )}
    </>
  )
}
