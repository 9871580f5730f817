import { PageHeader } from '../../components/ui/page-header'

export function MyProductsPage() {
  return <PageHeader title="My Product" />
}
