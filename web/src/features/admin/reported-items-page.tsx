import { PageHeader } from '../../components/ui/page-header'

export function ReportedItemsPage() {
  return <PageHeader title="Reported Items" />
}
