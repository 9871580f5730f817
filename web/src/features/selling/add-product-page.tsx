import { PageHeader } from '../../components/ui/page-header'

export function AddProductPage() {
  return <PageHeader title="Add a Product" />
}
