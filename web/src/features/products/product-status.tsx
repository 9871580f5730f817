import { Badge } from '../../components/ui/badge'
import { SpriteIcon } from '../../components/ui/sprite-icon'

/** Whether a buyer holds the laptop while paying, by the time the server sent (no buyer is named). */
export function isReserved(product: { sellStatus: boolean; reservedUntil: string | null }, now = Date.now()) {
  return !product.sellStatus && product.reservedUntil !== null && Date.parse(product.reservedUntil) > now
}

/** Sold, Expired (not renewed in time), Reserved (a buyer is paying) or Available. */
export function SaleStatusBadge({
  isSold,
  isReserved = false,
  isExpired = false,
  className,
}: {
  isSold: boolean
  isReserved?: boolean
  isExpired?: boolean
  className?: string
}) {
  if (!isSold && !isExpired && isReserved) {
    return (
      <Badge tone="outline" className={className}>
        Reserved
      </Badge>
    )
  }
  return (
    <Badge tone={isSold ? 'neutral' : isExpired ? 'muted' : 'accent'} className={className}>
      {isSold ? 'Sold' : isExpired ? 'Expired' : 'Available'}
    </Badge>
  )
}

export function VerifiedSellerBadge() {
  return (
    <Badge tone="accent">
      <SpriteIcon name="badge-check" className="size-3.5" />
      Verified seller
    </Badge>
  )
}

/** "Battery 91%" (health in % of design capacity), or "Battery not reported". */
export function batteryText(healthPct: number | null): string {
  return healthPct === null ? 'Battery not reported' : `Battery ${healthPct}%`
}

export function BatteryHealth({ healthPct, className }: { healthPct: number | null; className?: string }) {
  const icon =
    healthPct === null || healthPct < 75 ? 'battery-low' : healthPct < 85 ? 'battery-medium' : 'battery-full'
  return (
    <span className={className} data-testid="battery-health">
      <SpriteIcon name={icon} className="size-4 shrink-0" />
      {batteryText(healthPct)}
    </span>
  )
}
