import type { BookingStatus } from '#contract/bookings'
import { Badge, type BadgeTone } from '../../components/ui/badge'

/** The stages a paid sale moves through, as the buyer and the seller read them. */
export const STAGE_LABELS: Partial<Record<BookingStatus, { label: string; tone: BadgeTone }>> = {
  paid: { label: 'Waiting for handover', tone: 'outline' },
  shipped: { label: 'Shipped', tone: 'outline' },
  handed_over: { label: 'Handed over', tone: 'outline' },
  returning: { label: 'Being returned', tone: 'outline' },
  completed: { label: 'Completed', tone: 'muted' },
  disputed: { label: 'Problem reported', tone: 'outline' },
  refunded: { label: 'Refunded', tone: 'muted' },
}

/** "Paid" as the seed shows it, with the stage of the deal beside it. */
export function PaidWithStage({ status }: { status: BookingStatus }) {
  const stage = STAGE_LABELS[status]
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge tone="accent">Paid</Badge>
      {stage ? (
        <Badge tone={stage.tone} className="whitespace-nowrap">
          <span className="sr-only">Stage: </span>
          {stage.label}
        </Badge>
      ) : null}
    </span>
  )
}

/** The stage alone, beside the seller's "Sold". */
export function StageBadge({ status }: { status: BookingStatus }) {
  const stage = STAGE_LABELS[status]
  return stage ? (
    <Badge tone={stage.tone} className="whitespace-nowrap">
      <span className="sr-only">Stage: </span>
      {stage.label}
    </Badge>
  ) : null
}
