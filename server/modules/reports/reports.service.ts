import { and, desc, eq, isNull } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { FeeRule } from '#contract/fees'
import { PLACEHOLDER_IMAGE } from '#contract/products'
import type { NewReport, Report } from '#contract/reports'
import type { Db } from '#server/db/client'
import { products, reports, users } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import { firstPhotoUrl, isListed } from '#server/lib/listing-sql'
import type { PaymentProvider } from '#server/lib/payment-provider'
import type { SessionUser } from '#server/lib/session'
import type { DealMail } from '#server/modules/bookings'
import { leaveSale } from '#server/modules/deal'
import { refundOpenSaleOfListing } from '#server/modules/payments'

/**
 * Any signed-in user reports a listing once while their report is open; the seller cannot report their own.
 * Only a listing people can see (not removed, its seller not deleted) can be reported.
 */
export async function createReport(db: Db, reporter: SessionUser, input: NewReport): Promise<string> {
  const [product] = await db
    .select({ id: products.id, sellerId: products.sellerId })
    .from(products)
    .innerJoin(users, eq(users.id, products.sellerId))
    .where(and(eq(products.id, input.productId), isListed))
    .limit(1)
  if (!product) throw notFound('Product')
  if (product.sellerId === reporter.id) throw new AppError('FORBIDDEN', 'You cannot report your own listing')
  const [open] = await db
    .select({ id: reports.id })
    .from(reports)
    .where(
      and(eq(reports.productId, product.id), eq(reports.reporterId, reporter.id), eq(reports.status, 'open')),
    )
    .limit(1)
  if (open) throw new AppError('CONFLICT', 'You have already reported this listing')
  const [row] = await db
    .insert(reports)
    .values({ productId: product.id, reporterId: reporter.id, reason: input.reason })
    .returning({ id: reports.id })
  if (!row) throw new AppError('INTERNAL', 'The report could not be saved')
  return row.id
}

const sellers = alias(users, 'sellers')

/** Open reports, newest first, with the listing, reason, reporter and date. */
export async function findOpenReports(db: Db): Promise<Report[]> {
  const rows = await db
    .select({
      id: reports.id,
      productId: products.id,
      productName: products.name,
      productImage: firstPhotoUrl,
      sellerName: sellers.name,
      reason: reports.reason,
      reporterName: users.name,
      reporterEmail: users.email,
      status: reports.status,
      createdAt: reports.createdAt,
    })
    .from(reports)
    .innerJoin(products, eq(products.id, reports.productId))
    .innerJoin(users, eq(users.id, reports.reporterId))
    .innerJoin(sellers, eq(sellers.id, products.sellerId))
    .where(eq(reports.status, 'open'))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(500)
  return rows.map((r) => ({
    _id: r.id,
    productId: r.productId,
    productName: r.productName,
    productImage: r.productImage ?? PLACEHOLDER_IMAGE,
    sellerName: r.sellerName,
    reason: r.reason,
    reporterName: r.reporterName,
    reporterEmail: r.reporterEmail,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
  }))
}

/**
 * An admin closes an open report: dismiss it, or remove the listing (which closes every open report on
 * that listing). Each reporter whose report is closed is emailed the outcome. The listing's row stays for the record of its bookings and payments; a sale of it that is
 * paid and not finished is refunded to its buyer first (server/modules/payments/refunds.ts).
 */
export async function resolveReport(
  db: Db,
  provider: PaymentProvider,
  admin: SessionUser,
  id: string,
  action: 'dismiss' | 'remove',
  mail: DealMail,
  fee: FeeRule,
) {
  const modified = await db.transaction(async (tx) => {
    const [report] = await tx.select().from(reports).where(eq(reports.id, id)).for('update')
    if (!report) throw notFound('Report')
    if (report.status !== 'open') throw new AppError('CONFLICT', 'This report has already been handled')
    const now = new Date()
    const [listing] = await tx
      .select({ name: products.name })
      .from(products)
      .where(eq(products.id, report.productId))
    const tell = async (
      closed: { reporterId: string; reason: string }[],
      outcome: 'dismissed' | 'removed',
    ) => {
      for (const r of closed) {
        await mail.queue(tx, {
          to: { userId: r.reporterId },
          template: 'report-resolved',
          data: {
            productName: listing?.name ?? 'a laptop',
            productId: report.productId,
            reason: r.reason,
            outcome,
          },
        })
      }
    }
    if (action === 'dismiss') {
      await tx
        .update(reports)
        .set({ status: 'dismissed', resolvedBy: admin.id, resolvedAt: now })
        .where(eq(reports.id, id))
      // The reporter hears what was decided: one email for their report.
      await tell([report], 'dismissed')
      return 1
    }
    // Nothing a buyer paid for disappears: an open sale of the listing is refunded in full first.
    await refundOpenSaleOfListing(tx, provider, admin, report.productId, mail, fee)
    await tx
      .update(products)
      .set({ removedAt: now, updatedAt: now })
      .where(and(eq(products.id, report.productId), isNull(products.removedAt)))
    await leaveSale(tx, { productIds: [report.productId], reason: 'removed', actorId: admin.id, mail })
    const closed = await tx
      .update(reports)
      .set({ status: 'removed', resolvedBy: admin.id, resolvedAt: now })
      .where(and(eq(reports.productId, report.productId), eq(reports.status, 'open')))
      .returning({ reporterId: reports.reporterId, reason: reports.reason })
    // Everyone whose report this closes hears it, once each.
    await tell(closed, 'removed')
    return 1
  })
  return modified
}
