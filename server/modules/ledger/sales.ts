import { and, eq, inArray, sql } from 'drizzle-orm'
import { type FeeRule, feeCents } from '#contract/fees'
import type { Db } from '#server/db/client'
import { bookings, ledgerEntries, ledgerTransactions, products } from '#server/db/schema'
import { postTransaction } from './ledger'

// A sale's money (docs/decisions/0035). Every change of a sale's state calls `postSaleMoney` in its own
// transaction; it reads the sale's state and writes the ledger transactions that state implies and that are
// not written yet:
//
//   paid       charge    buyers −(price + shipping), held:<seller> +net, held_fees +fee, shipping +shipping
//                        (fee from the rule in force, on the price only; shipping is the carrier's money)
//   completed  complete  held:<seller> −net, available:<seller> +net, held_fees −fee, fees +fee
//   refunded   refund    buyers +(price + shipping); before completion from held:<seller> and held_fees,
//                        after it from available:<seller> (which may go below zero) and fees; the shipping
//                        from `shipping` (below zero after a label was bought: docs/decisions/0074)
//   (label)    label     shipping −shipping, carriers +shipping: postLabelMoney, when the seller buys the label
//   (return)   return_label  available:<seller> −cost, carriers +cost: postReturnLabelMoney, when a return's
//                        label is bought (the seller pays it, not as described: docs/decisions/0085)
//
// Each kind is written at most once per sale (a unique index), so calling it twice, from a retry or a second
// instance, changes nothing. The deal's moves (server/modules/deal/stages.ts) call it; a refund goes through the
// deal's `refundSale`, the one place that gives a sale's money back.

type SaleRow = {
  id: string
  stage: string
  isPaid: boolean
  priceCents: number
  shippingCents: number
  sellerId: string
}

/** Writes the ledger transactions these sales' state implies and that are not written yet. */
export async function postSaleMoney(tx: Db, bookingIds: string[], fee: FeeRule): Promise<void> {
  if (bookingIds.length === 0) return
  const sales: SaleRow[] = await tx
    .select({
      id: bookings.id,
      stage: bookings.stage,
      isPaid: bookings.isPaid,
      priceCents: bookings.priceCents,
      shippingCents: bookings.shippingCents,
      sellerId: products.sellerId,
    })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(inArray(bookings.id, bookingIds))
  const posted = await tx
    .select({
      bookingId: ledgerTransactions.bookingId,
      kind: ledgerTransactions.kind,
      accountId: ledgerEntries.accountId,
      amountCents: ledgerEntries.amountCents,
    })
    .from(ledgerTransactions)
    .leftJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .where(inArray(ledgerTransactions.bookingId, bookingIds))
  for (const sale of sales) {
    if (!sale.isPaid) continue
    const mine = posted.filter((p) => p.bookingId === sale.id)
    const kinds = new Set(mine.map((p) => p.kind))
    const s = sale.sellerId
    // The sale's split is the charge's: a fee rule changed since does not reach a sale already paid.
    let price = sale.priceCents
    let shipping = sale.shippingCents
    let feePart = feeCents(price, fee)
    const charge = mine.filter((p) => p.kind === 'charge')
    if (charge.length > 0) {
      shipping = charge.find((p) => p.accountId === 'shipping')?.amountCents ?? 0
      price = -(charge.find((p) => p.accountId === 'buyers')?.amountCents ?? 0) - shipping
      feePart = charge.find((p) => p.accountId === 'held_fees')?.amountCents ?? 0
    } else {
      await postTransaction(tx, { kind: 'charge', sellerId: s, bookingId: sale.id }, [
        { account: { kind: 'buyers' }, amountCents: -(price + shipping) },
        { account: { kind: 'held', sellerId: s }, amountCents: price - feePart },
        { account: { kind: 'held_fees' }, amountCents: feePart },
        { account: { kind: 'shipping' }, amountCents: shipping },
      ])
    }
    const net = price - feePart
    let completed = kinds.has('complete')
    if (sale.stage === 'completed' && !completed && !kinds.has('refund')) {
      await postTransaction(tx, { kind: 'complete', sellerId: s, bookingId: sale.id }, [
        { account: { kind: 'held', sellerId: s }, amountCents: -net },
        { account: { kind: 'available', sellerId: s }, amountCents: net },
        { account: { kind: 'held_fees' }, amountCents: -feePart },
        { account: { kind: 'fees' }, amountCents: feePart },
      ])
      completed = true
    }
    if (sale.stage === 'refunded' && !kinds.has('refund')) {
      // The shipping comes back from `shipping`: after the label was bought that money went to the carrier, and
      // `shipping` goes below zero by it, what the marketplace bore (docs/decisions/0074).
      await postTransaction(tx, { kind: 'refund', sellerId: s, bookingId: sale.id }, [
        { account: { kind: 'buyers' }, amountCents: price + shipping },
        { account: { kind: 'shipping' }, amountCents: -shipping },
        completed
          ? { account: { kind: 'available', sellerId: s }, amountCents: -net }
          : { account: { kind: 'held', sellerId: s }, amountCents: -net },
        completed
          ? { account: { kind: 'fees' }, amountCents: -feePart }
          : { account: { kind: 'held_fees' }, amountCents: -feePart },
      ])
    }
  }
}

/**
 * The seller bought a paid sale's shipping label: what the buyer paid for shipping leaves the `shipping` account
 * for the carrier, in the caller's transaction. Once per sale (a second call writes nothing); none for a sale
 * that was not charged shipping, or whose charge is not posted (the charge comes first).
 */
export async function postLabelMoney(tx: Db, bookingId: string): Promise<void> {
  const rows = await tx
    .select({
      kind: ledgerTransactions.kind,
      sellerId: ledgerTransactions.sellerId,
      accountId: ledgerEntries.accountId,
      amountCents: ledgerEntries.amountCents,
    })
    .from(ledgerTransactions)
    .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
    .where(eq(ledgerTransactions.bookingId, bookingId))
  if (rows.some((r) => r.kind === 'label' || r.kind === 'refund')) return
  const shipping = rows.find((r) => r.kind === 'charge' && r.accountId === 'shipping')
  if (!shipping) return
  await postTransaction(tx, { kind: 'label', sellerId: shipping.sellerId, bookingId }, [
    { account: { kind: 'shipping' }, amountCents: -shipping.amountCents },
    { account: { kind: 'carriers' }, amountCents: shipping.amountCents },
  ])
}

/**
 * A return's label was bought (not as described, so the seller pays it): its cost leaves the seller's available
 * money for the carrier, in the caller's transaction. The sale's own share is still held (and goes back to the
 * buyer with the refund), so the label comes from what the seller has available; short of it, the balance goes
 * below zero and the next completed sales fill it before a payout (docs/decisions/0085). Once per sale: a second
 * call writes nothing and answers false.
 */
export async function postReturnLabelMoney(tx: Db, bookingId: string, costCents: number): Promise<boolean> {
  const [sale] = await tx
    .select({ sellerId: products.sellerId })
    .from(bookings)
    .innerJoin(products, eq(products.id, bookings.productId))
    .where(eq(bookings.id, bookingId))
  if (!sale) return false
  const id = await postTransaction(tx, { kind: 'return_label', sellerId: sale.sellerId, bookingId }, [
    { account: { kind: 'available', sellerId: sale.sellerId }, amountCents: -costCents },
    { account: { kind: 'carriers' }, amountCents: costCents },
  ])
  return id !== null
}

/** Whether a booking's return label cost was posted (the label job recorded its label). */
export async function hasReturnLabelMoney(tx: Db, bookingId: string): Promise<boolean> {
  const [posted] = await tx
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.bookingId, bookingId), eq(ledgerTransactions.kind, 'return_label')))
    .limit(1)
  return Boolean(posted)
}

/**
 * Posts the paid sales the ledger has no charge for (sales recorded before the ledger began, or written
 * straight into the database like the demo's), with the stage each is at. Run at start; idempotent.
 */
export async function postUnpostedSales(db: Db, fee: FeeRule): Promise<number> {
  let total = 0
  for (;;) {
    const rows = await db
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        sql`${bookings.isPaid} and not exists (select 1 from ${ledgerTransactions} t
          where t.booking_id = ${bookings.id} and t.kind = 'charge')`,
      )
      .limit(500)
    if (rows.length === 0) return total
    await db.transaction((tx) =>
      postSaleMoney(
        tx,
        rows.map((r) => r.id),
        fee,
      ),
    )
    total += rows.length
  }
}
