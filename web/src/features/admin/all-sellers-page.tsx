import { PageHeader } from '../../components/ui/page-header'

export function AllSellersPage() {
  return <PageHeader title="All Sellers" />
}
