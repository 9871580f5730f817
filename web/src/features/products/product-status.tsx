import { BadgeCheck } from 'lucide-react'
import { Badge } from '../../components/ui/badge'

export function SaleStatusBadge({ isSold, className }: { isSold: boolean; className?: string }) {
  return (
    <Badge tone={isSold ? 'neutral' : 'accent'} className={className}>
      {isSold ? 'Sold' : 'Available'}
    </Badge>
  )
}

export function VerifiedSellerBadge() {
  return (
    <Badge tone="accent">
      <BadgeCheck aria-hidden="true" className="size-3.5" />
      Verified seller
    </Badge>
  )
}
