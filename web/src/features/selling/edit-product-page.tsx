import { PageHeader } from '../../components/ui/page-header'

export function EditProductPage() {
  return <PageHeader title="Edit product" />
}
