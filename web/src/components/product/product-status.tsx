import type { ReviewState } from '#contract/listing-reviews'
import type { Product } from '#contract/products'
import { formatReportDay } from '../../lib/format'
import { Badge } from '../ui/badge'
import { cn } from '../ui/cn'
import { SpriteIcon } from '../ui/sprite-icon'

/** Whether a buyer holds the laptop while paying, by the time the server sent (no buyer is named). */
export function isReserved(product: { sellStatus: boolean; reservedUntil: string | null }, now = Date.now()) {
  return !product.sellStatus && product.reservedUntil !== null && Date.parse(product.reservedUntil) > now
}

/**
 * Where a listing's review stands, in words, while it is off sale for it: a listing waiting for review or rejected is
 * not available to anyone, so it never says "Available". Undefined once approved (and for anyone but its seller and
 * admins, who are never sent the review state).
 */
export function reviewStatusText(reviewState: ReviewState | undefined): string | undefined {
  if (reviewState === 'pending') return 'Waiting for review'
  if (reviewState === 'rejected') return 'Not approved'
  return undefined
}

/** Sold, Waiting for review or Not approved (its seller's view), Expired, Reserved (a buyer is paying) or Available. */
export function SaleStatusBadge({
  isSold,
  isReserved = false,
  isExpired = false,
  reviewState,
  className,
}: {
  isSold: boolean
  isReserved?: boolean
  isExpired?: boolean
  reviewState?: ReviewState
  className?: string
}) {
  const review = isSold ? undefined : reviewStatusText(reviewState)
  if (review) {
    return (
      <Badge
        tone={reviewState === 'pending' ? 'warning' : 'neutral'}
        className={cn(reviewState === 'rejected' && 'bg-red-700', className)}
      >
        {review}
      </Badge>
    )
  }
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

/**
 * Where the battery figure came from: "Battery 87% — read from the seller's report file of 12 Nov" when it was read
 * from the file the seller uploaded, the seller's word otherwise. A report file can be written by hand, so neither
 * is called verified: each says where the figure came from.
 */
export function batteryEvidenceText(
  product: Pick<Product, 'battery_health_pct' | 'battery_verified' | 'battery_report_date'>,
): string {
  return product.battery_health_pct === null ? 'Battery not reported' : `Battery ${batteryEvidence(product)}`
}

/**
 * The same without the word "Battery", for a row already labelled Battery: "87% — read from the seller's
 * report file of 12 Nov", or "Not reported".
 */
export function batteryEvidence(
  product: Pick<Product, 'battery_health_pct' | 'battery_verified' | 'battery_report_date'>,
): string {
  if (product.battery_health_pct === null) return 'Not reported'
  if (product.battery_verified && product.battery_report_date) {
    return `${product.battery_health_pct}% — read from the seller's report file of ${formatReportDay(product.battery_report_date)}`
  }
  return `${product.battery_health_pct}% — as typed by the seller, not checked`
}

/** "Battery 91%" (health in % of design capacity), or "Battery not reported". */
export function batteryText(healthPct: number | null): string {
  return healthPct === null ? 'Battery not reported' : `Battery ${healthPct}%`
}

export function BatteryHealth({
  healthPct,
  className,
  label,
}: {
  healthPct: number | null
  className?: string
  /** What to say instead of "Battery 87%" (where the figure came from). */
  label?: string
}) {
  const icon =
    healthPct === null || healthPct < 75 ? 'battery-low' : healthPct < 85 ? 'battery-medium' : 'battery-full'
  return (
    <span className={className} data-testid="battery-health">
      <SpriteIcon name={icon} className="size-4 shrink-0" />
      {label ?? batteryText(healthPct)}
    </span>
  )
}
