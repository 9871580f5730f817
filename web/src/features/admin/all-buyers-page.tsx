import { PageHeader } from '../../components/ui/page-header'

export function AllBuyersPage() {
  return <PageHeader title="All Buyers" />
}
