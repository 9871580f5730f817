import { PageHeader } from '../../components/ui/page-header'

export function MyOrdersPage() {
  return <PageHeader title="My Orders" />
}
