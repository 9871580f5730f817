import { PageHeader } from '../../components/ui/page-header'

export function PaymentPage() {
  return <PageHeader title="Payment" />
}
