import { sql } from 'drizzle-orm'
import type { FinanceSale, SaleRefund } from '#contract/payouts'
import type { Db } from '#server/db/client'
import { payoutsOnItsWay, rowsOf, saleFigures, sellerBalances } from '#server/modules/ledger'

type SaleRow = {
  booking_id: string
  seller_id: string
  product_name: string
  buyer_name: string
  seller_name: string
  stage: string
  completed_at: Date | string
  payable: boolean
}

type LivePayout = {
  id: string
  booking_id: string
  state: 'pending' | 'in_transit' | 'paid'
  amount_cents: string | number
  stripe_transfer_id: string | null
}

/**
 * The latest completed sales for the admins' Finance page, each with what an admin's refund
 * (`POST /api/bookings/{id}/refund`, `refundCompletedSaleIn` with `reverseSaleTransfer`) would do, or the reason
 * the server would refuse it now: the same rules read without changing anything.
 */
export async function recentSales(
  db: Db,
  opts: { stripeConfigured: boolean; limit?: number },
): Promise<FinanceSale[]> {
  const rows = await rowsOf<SaleRow>(
    db,
    sql`select b.id as booking_id, p.seller_id, b.completed_at, b.product_name, b.user_name as buyer_name,
          u.name as seller_name, b.stage,
          exists (select 1 from payments pm where pm.booking_id = b.id and pm.status = 'succeeded') as payable
        from bookings b
        join products p on p.id = b.product_id
        join users u on u.id = p.seller_id
        where b.completed_at is not null and b.stage in ('completed', 'refunded')
          -- A sale the ledger has not completed (one recorded before the ledger began, until it is posted) is left
          -- out here, before the limit, so it never takes the place of one that counts.
          and exists (select 1 from ledger_transactions t where t.booking_id = b.id and t.kind = 'complete')
        order by b.completed_at desc, b.id
        limit ${opts.limit ?? 10}`,
  )
  if (rows.length === 0) return []
  const [money, live, balances] = await Promise.all([
    saleFigures(
      db,
      rows.map((r) => r.booking_id),
    ),
    rowsOf<LivePayout>(
      db,
      sql`select p.id, p.booking_id, p.state, p.amount_cents, p.stripe_transfer_id
          from payouts p
          where p.state <> 'failed'
            and p.booking_id in (${sql.join(
              rows.map((r) => sql`${r.booking_id}::uuid`),
              sql`, `,
            )})`,
    ),
    Promise.all(
      [...new Set(rows.map((r) => r.seller_id))].map(
        async (id) => [id, await sellerBalances(db, id)] as const,
      ),
    ).then((list) => new Map(list)),
  ])
  const onItsWay = await payoutsOnItsWay(
    db,
    live.map((p) => p.id),
  )
  return rows.flatMap((r) => {
    const figures = money.get(r.booking_id)
    if (!figures?.completed_at) return []
    const payouts = live
      .filter((p) => p.booking_id === r.booking_id)
      .map((p) => ({ ...p, on_its_way: onItsWay.get(p.id) ?? 0 }))
    const available = balances.get(r.seller_id)?.available ?? 0
    return [
      {
        booking_id: r.booking_id,
        product_name: r.product_name,
        buyer_name: r.buyer_name,
        seller_name: r.seller_name,
        completed_at: new Date(r.completed_at).toISOString(),
        price_cents: figures.price_cents,
        fee_cents: figures.fee_cents,
        receive_cents: figures.receive_cents,
        refunded: r.stage === 'refunded',
        refund: refundOf(r, available, figures.receive_cents, payouts, opts.stripeConfigured),
      },
    ]
  })
}

function refundOf(
  sale: SaleRow,
  available: number,
  net: number,
  payouts: (LivePayout & { on_its_way: number })[],
  stripeConfigured: boolean,
): SaleRefund {
  // What Stripe would take back: each transfer of the sale, what of it is still the seller's.
  let reversal = 0
  for (const p of payouts) {
    if (!p.stripe_transfer_id) continue
    reversal += p.state === 'paid' ? Number(p.amount_cents) : Math.max(0, Number(p.on_its_way))
  }
  const after = available - net + reversal
  const effect: SaleRefund['effect'] =
    reversal > 0 ? 'transfer_reversed' : after < 0 ? 'negative_balance' : 'from_balance'
  const refuse = (reason: string): SaleRefund => ({
    allowed: false,
    reason,
    effect,
    reversal_cents: reversal,
    seller_balance_after_cents: after,
  })
  if (sale.stage === 'refunded') return refuse('Refunded already')
  if (sale.stage === 'disputed') return refuse('Disputed: refund it from its dispute')
  if (sale.stage !== 'completed') return refuse('Only a completed sale can be refunded here')
  if (!sale.payable) return refuse('This sale has no payment left to refund')
  if (payouts.some((p) => p.state === 'pending')) {
    return refuse("The seller's share is being transferred right now: try again in a few minutes")
  }
  if (payouts.some((p) => p.stripe_transfer_id) && !stripeConfigured) {
    return refuse('Paid out through Stripe, which is not configured here')
  }
  return { allowed: true, reason: null, effect, reversal_cents: reversal, seller_balance_after_cents: after }
}
