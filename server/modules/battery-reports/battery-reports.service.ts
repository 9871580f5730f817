import { and, desc, eq, isNull } from 'drizzle-orm'
import {
  type BatteryReportFacts,
  type BatteryReportFile,
  isBatteryReportOld,
} from '#contract/battery-reports'
import { BATTERY_MINIMUM_PCT, CONDITIONS } from '#contract/products'
import type { Db } from '#server/db/client'
import { batteryReports, products } from '#server/db/schema'
import { AppError, notFound } from '#server/lib/errors'
import type { SessionUser } from '#server/lib/session'
import { BatteryReportError, parseBatteryReport } from './parse-report'

export type UploadedFile = { bytes: Buffer; fileName: string }

/** The listing's seller uploads the report: its facts replace the typed battery figures, the file is kept private. */
export async function addBatteryReport(
  db: Db,
  seller: SessionUser,
  productId: string,
  readFile: () => Promise<UploadedFile>,
  now = new Date(),
): Promise<BatteryReportFacts> {
  const product = await ownAvailableProduct(db, seller, productId)
  const file = await readFile()
  let parsed: ReturnType<typeof parseBatteryReport>
  try {
    parsed = parseBatteryReport(file.bytes, now)
  } catch (err) {
    if (err instanceof BatteryReportError)
      throw new AppError('VALIDATION', err.message, { file: err.message })
    throw err
  }
  // The grade rules use the report's figure: a grade it does not reach is refused, and nothing changes.
  const minimum = BATTERY_MINIMUM_PCT[product.condition]
  if (minimum !== null && parsed.healthPct < minimum) {
    const fits = CONDITIONS.find((c) => {
      const least = BATTERY_MINIMUM_PCT[c]
      return least === null || parsed.healthPct >= least
    })
    const message = `The report reads ${parsed.healthPct}%, and ${product.condition} needs at least ${minimum}%: change the condition to ${fits} first, then upload the report again`
    throw new AppError('VALIDATION', message, { file: message })
  }
  const notices: string[] = []
  if (
    product.batteryHealthPct !== null &&
    Math.abs(product.batteryHealthPct - parsed.healthPct) > 1 &&
    product.batteryReportSource === null
  ) {
    notices.push(
      `You typed ${product.batteryHealthPct}%; the laptop's report reads ${parsed.healthPct}%, so the listing now shows ${parsed.healthPct}%.`,
    )
  }
  const updated = await db.transaction(async (tx) => {
    await tx.insert(batteryReports).values({
      productId,
      uploaderId: seller.id,
      source: parsed.source,
      designCapacity: parsed.designCapacity,
      fullCapacity: parsed.fullCapacity,
      unit: parsed.unit,
      healthPct: parsed.healthPct,
      cycles: parsed.cycles,
      reportDate: parsed.reportDate,
      fileName: file.fileName.slice(0, 200),
      content: parsed.text,
    })
    return tx
      .update(products)
      .set({
        batteryHealthPct: parsed.healthPct,
        batteryCycles: parsed.cycles,
        batteryReportSource: parsed.source,
        batteryReportDate: parsed.reportDate,
        updatedAt: now,
      })
      .where(and(eq(products.id, productId), eq(products.isSold, false), isNull(products.removedAt)))
      .returning({ id: products.id })
  })
  if (updated.length === 0) throw new AppError('CONFLICT', 'A sold laptop cannot be edited')
  return {
    battery_health_pct: parsed.healthPct,
    battery_cycles: parsed.cycles,
    report_date: parsed.reportDate.toISOString(),
    source: parsed.source,
    report_is_old: isBatteryReportOld(parsed.reportDate, now),
    notices,
  }
}

async function ownAvailableProduct(db: Db, seller: SessionUser, productId: string) {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, productId), isNull(products.removedAt)))
    .limit(1)
  if (!row) throw notFound('Product')
  if (row.sellerId !== seller.id)
    throw new AppError('FORBIDDEN', 'Only the seller of this laptop can change it')
  if (row.isSold) throw new AppError('CONFLICT', 'A sold laptop cannot be edited')
  return row
}

/**
 * A seller's typed battery figures against a listing whose battery was read from its report: the report's figures
 * stay. Returns the figures to store and what to tell the seller.
 */
export function keepReportedBattery(
  current: {
    batteryHealthPct: number | null
    batteryCycles: number | null
    batteryReportSource: string | null
  },
  typed: { battery_health_pct?: number | null; battery_cycles?: number | null },
): { healthPct: number | null | undefined; cycles: number | null | undefined; notices: string[] } {
  if (current.batteryReportSource === null) {
    return { healthPct: typed.battery_health_pct, cycles: typed.battery_cycles, notices: [] }
  }
  const notices: string[] = []
  const typedHealth = typed.battery_health_pct
  if (
    typedHealth !== undefined &&
    (typedHealth === null ||
      current.batteryHealthPct === null ||
      Math.abs(typedHealth - current.batteryHealthPct) > 1)
  ) {
    notices.push(
      `The battery was read from the laptop's report (${current.batteryHealthPct}%), so the figure you typed was replaced by it.`,
    )
  }
  if (typed.battery_cycles !== undefined && typed.battery_cycles !== current.batteryCycles) {
    notices.push(
      `The charge cycles come from the laptop's report (${current.batteryCycles ?? 'not counted'}), so the number you typed was replaced by it.`,
    )
  }
  return { healthPct: undefined, cycles: undefined, notices }
}

/**
 * For an admin's review: the file the listing's battery figures were read from, the latest upload, as it came.
 * The route admits admins only (the file stays private to the seller and the people who check listings).
 */
export async function getLatestBatteryReport(db: Db, productId: string): Promise<BatteryReportFile> {
  const [product] = await db
    .select({ source: products.batteryReportSource })
    .from(products)
    .where(eq(products.id, productId))
    .limit(1)
  if (!product) throw notFound('Product')
  const [report] = product.source
    ? await db
        .select()
        .from(batteryReports)
        .where(eq(batteryReports.productId, productId))
        .orderBy(desc(batteryReports.createdAt))
        .limit(1)
    : []
  if (!report)
    throw new AppError('NOT_FOUND', "This listing's battery figures were typed by the seller: no report file")
  return {
    source: report.source,
    file_name: report.fileName,
    report_date: report.reportDate.toISOString(),
    uploaded_at: new Date(report.createdAt).toISOString(),
    health_pct: report.healthPct,
    cycles: report.cycles,
    content: report.content,
  }
}
