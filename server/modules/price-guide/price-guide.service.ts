import { type SQL, sql } from 'drizzle-orm'
import {
  PRICE_GUIDE_MIN_SALES,
  PRICE_GUIDE_WINDOW_DAYS,
  type PriceGuide,
  type PriceGuideQuery,
} from '#contract/price-guide'
import type { AppContext } from '#server/app-context'
import type { Db } from '#server/db/client'
import { rowsOf } from '#server/lib/paging'

// The price guide table: per brand, RAM, storage and processor (level 1: its model, level 2: its family),
// the count and quartiles of what such laptops sold for (paid, not refunded) in the last 180 days.
// A sale rewrites its own keys inside the sale's transaction; a daily job rewrites everything, so sales
// that leave the window or are refunded later drop out. docs/decisions/0026-price-guide.md.

// Any constant will do; the second key is the hash of a brand, RAM and storage.
const REFRESH_LOCK = 7_314_026

/** Sales in the window, with the keys they count under. `filter` narrows them (one kind of laptop). */
function salesCte(filter: SQL = sql`true`) {
  return sql`sales as (
    select p.brand_id, p.ram_gb, p.storage_gb, p.processor_model as model,
      p.processor_family as family, pay.amount_cents
    from payments pay
    join products p on p.id = pay.product_id
    join bookings b on b.id = pay.booking_id
    where pay.status = 'succeeded' and b.stage <> 'refunded'
      and coalesce(b.paid_at, pay.updated_at) >= now() - make_interval(days => ${PRICE_GUIDE_WINDOW_DAYS})
      and ${filter}
  )`
}

function quartiles() {
  return sql`count(*)::int,
    round(percentile_cont(0.25) within group (order by amount_cents))::int,
    round(percentile_cont(0.5) within group (order by amount_cents))::int,
    round(percentile_cont(0.75) within group (order by amount_cents))::int`
}

const insertFromSales = (filter?: SQL) => sql`
  with ${salesCte(filter)}
  insert into price_guides (level, brand_id, processor_key, ram_gb, storage_gb, sales, p25_cents, median_cents, p75_cents)
  select 1, brand_id, model, ram_gb, storage_gb, ${quartiles()}
  from sales where model <> '' group by brand_id, model, ram_gb, storage_gb
  union all
  select 2, brand_id, family, ram_gb, storage_gb, ${quartiles()}
  from sales where family is not null group by brand_id, family, ram_gb, storage_gb`

/** Rewrites the whole table from the sales in the window (the daily job). Returns the rows written. */
export async function refreshAllPriceGuides(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${REFRESH_LOCK}, 0)`)
    await tx.execute(sql`delete from price_guides`)
    await tx.execute(insertFromSales())
    const [row] = await rowsOf<{ n: number }>(tx, sql`select count(*)::int as n from price_guides`)
    return row?.n ?? 0
  })
}

/**
 * Rewrites the guide rows a sale of this listing counts under (its model's and its family's). Runs in the
 * sale's transaction: a lock per kind of laptop makes a concurrent sale of the same kind wait, so each
 * statement here sees every sale committed before it.
 */
export async function refreshPriceGuideForProduct(tx: Db, productId: string): Promise<void> {
  const [kind] = await rowsOf<{
    brand_id: string
    ram_gb: number
    storage_gb: number
    model: string
    family: string | null
  }>(
    tx,
    sql`select brand_id, ram_gb, storage_gb, processor_model as model, processor_family as family
        from products where id = ${productId}`,
  )
  if (!kind) return
  await tx.execute(
    sql`select pg_advisory_xact_lock(${REFRESH_LOCK}, hashtext(${`${kind.brand_id}:${kind.ram_gb}:${kind.storage_gb}`}))`,
  )
  // A paid sale marks its listing sold, so the sold listings' index finds the kind's sales.
  const sameSpecs = sql`p.is_sold and p.brand_id = ${kind.brand_id} and p.ram_gb = ${kind.ram_gb} and p.storage_gb = ${kind.storage_gb}`
  const sameProcessor = kind.family
    ? sql`(p.processor_model = ${kind.model} or p.processor_family = ${kind.family})`
    : sql`p.processor_model = ${kind.model}`
  await tx.execute(sql`delete from price_guides
    where brand_id = ${kind.brand_id} and ram_gb = ${kind.ram_gb} and storage_gb = ${kind.storage_gb}
      and ((level = 1 and processor_key = ${kind.model}) or (level = 2 and processor_key = ${kind.family}))`)
  // The family's rows are rebuilt from every model of it, the model's from that model alone.
  await tx.execute(sql`
    with ${salesCte(sql`${sameSpecs} and ${sameProcessor}`)}
    insert into price_guides (level, brand_id, processor_key, ram_gb, storage_gb, sales, p25_cents, median_cents, p75_cents)
    select 1, brand_id, model, ram_gb, storage_gb, ${quartiles()}
    from sales where model = ${kind.model} and model <> '' group by brand_id, model, ram_gb, storage_gb
    union all
    select 2, brand_id, family, ram_gb, storage_gb, ${quartiles()}
    from sales where family = ${kind.family} group by brand_id, family, ram_gb, storage_gb`)
}

type GuideRow = { level: number; sales: number; p25_cents: number; median_cents: number; p75_cents: number }

/**
 * The guide for a kind of laptop as a seller types it: its processor model's figures when at least 5 sales
 * back them, else its family's; below 5 either way, the count alone.
 */
export async function getPriceGuide(db: Db, q: PriceGuideQuery): Promise<PriceGuide> {
  const rows = await rowsOf<GuideRow>(
    db,
    sql`select level, sales, p25_cents, median_cents, p75_cents from price_guides
        where brand_id = ${q.brand} and ram_gb = ${q.ram_gb} and storage_gb = ${q.storage_gb}
          and ((level = 1 and processor_key = processor_model_key(${q.processor}))
            or (level = 2 and processor_key = processor_family_key(${q.processor})))
        order by level`,
  )
  const used = rows.find((r) => r.sales >= PRICE_GUIDE_MIN_SALES)
  if (!used) {
    return { count: Math.max(0, ...rows.map((r) => r.sales)), p25: null, median: null, p75: null }
  }
  return {
    count: used.sales,
    p25: used.p25_cents / 100,
    median: used.median_cents / 100,
    p75: used.p75_cents / 100,
  }
}

/** Rebuilds the guide daily (03:17 UTC), so sales leave it when they pass 180 days or are refunded. */
export function registerPriceGuideJobs(ctx: Pick<AppContext, 'db' | 'jobs'>) {
  ctx.jobs.work('price-guide.refresh', async () => {
    await refreshAllPriceGuides(ctx.db)
  })
  ctx.jobs.schedule('price-guide.refresh', '17 3 * * *')
}
