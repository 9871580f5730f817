import type { BookingStatus } from '#contract/bookings'
import type { DeliveryMethod } from '#contract/delivery'
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

/** A paid sale waits for the handover, or for the seller to ship it when the buyer chose shipping. */
function stageOf(status: BookingStatus, method: DeliveryMethod | undefined) {
  if (status === 'paid' && method === 'ship')
    return { label: 'Waiting to be shipped', tone: 'outline' as const }
  return STAGE_LABELS[status]
}

/** "Paid" as the seed shows it, with the stage of the deal beside it. */
export function PaidWithStage({ status, method }: { status: BookingStatus; method?: DeliveryMethod }) {
  const stage = stageOf(status, method)
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
export function StageBadge({ status, method }: { status: BookingStatus; method?: DeliveryMethod }) {
  const stage = stageOf(status, method)
  return stage ? (
    <Badge tone={stage.tone} className="whitespace-nowrap">
      <span className="sr-only">Stage: </span>
      {stage.label}
    </Badge>
  ) : null
}

/**
 * The `default` of a switch over a booking's status: TypeScript refuses the call while a status has no case, so
 * a status added to the contract is not shown as an empty panel. Shows nothing if one arrives all the same.
 */
export function unhandledStatus(status: never): null {
  void status
  return null
}
