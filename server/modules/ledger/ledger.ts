import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client'
import {
  type LedgerAccountKind,
  type LedgerTransactionKind,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
} from '#server/db/schema'
import { AppError } from '#server/lib/errors'

// The double-entry ledger (docs/decisions/0035): accounts, transactions whose entries sum to zero, balances
// as sums. Nothing but this file writes `ledger_*`; the movements themselves are named in sales.ts and
// server/modules/payouts.

/** The marketplace's own accounts, and the ones each seller has. */
export type AccountRef =
  | { kind: 'buyers' | 'held_fees' | 'fees' | 'shipping' | 'carriers' }
  | { kind: 'held' | 'available' | 'on_its_way' | 'paid_out'; sellerId: string }

export function accountId(ref: AccountRef): string {
  return 'sellerId' in ref ? `${ref.kind}:${ref.sellerId}` : ref.kind
}

export type Posting = { account: AccountRef; amountCents: number }

export type LedgerSubject = { bookingId: string } | { payoutId: string }

/**
 * Writes one ledger transaction in the caller's database transaction: its entries must sum to zero (checked
 * here, and again by the database at commit). A sale or a payout has each kind of transaction at most once:
 * a second call for the same subject and kind writes nothing and returns null, so a repeated event, a retry or
 * a second instance posts once.
 */
export async function postTransaction(
  tx: Db,
  head: { kind: LedgerTransactionKind; sellerId: string } & LedgerSubject,
  postings: Posting[],
): Promise<number | null> {
  const entries = postings.filter((p) => p.amountCents !== 0)
  for (const p of entries) {
    if (!Number.isSafeInteger(p.amountCents)) {
      throw new AppError('INTERNAL', `Ledger: ${p.amountCents} is not a whole number of cents`)
    }
  }
  const total = entries.reduce((sum, p) => sum + p.amountCents, 0)
  if (total !== 0) throw new AppError('INTERNAL', `Ledger: a ${head.kind} transaction sums to ${total}`)
  const [row] = await tx
    .insert(ledgerTransactions)
    .values({
      kind: head.kind,
      sellerId: head.sellerId,
      bookingId: 'bookingId' in head ? head.bookingId : null,
      payoutId: 'payoutId' in head ? head.payoutId : null,
    })
    .onConflictDoNothing()
    .returning({ id: ledgerTransactions.id })
  if (!row) return null
  if (entries.length === 0) return row.id
  await tx
    .insert(ledgerAccounts)
    .values(
      [...new Map(entries.map((p) => [accountId(p.account), p.account])).values()].map((ref) => ({
        id: accountId(ref),
        kind: ref.kind,
        sellerId: 'sellerId' in ref ? ref.sellerId : null,
      })),
    )
    .onConflictDoNothing()
  await tx.insert(ledgerEntries).values(
    entries.map((p) => ({
      transactionId: row.id,
      accountId: accountId(p.account),
      amountCents: p.amountCents,
    })),
  )
  return row.id
}

export type SellerBalances = Record<'held' | 'available' | 'on_its_way' | 'paid_out', number>

/** A seller's balances: each the sum of that account's entries. */
export async function sellerBalances(db: Db, sellerId: string): Promise<SellerBalances> {
  const rows = await rowsOf<{ kind: LedgerAccountKind; total: string | number }>(
    db,
    sql`select a.kind, coalesce(sum(e.amount_cents), 0)::bigint as total
        from ledger_accounts a left join ledger_entries e on e.account_id = a.id
        where a.seller_id = ${sellerId} group by a.kind`,
  )
  const out: SellerBalances = { held: 0, available: 0, on_its_way: 0, paid_out: 0 }
  for (const r of rows) if (r.kind in out) out[r.kind as keyof SellerBalances] = Number(r.total)
  return out
}

/** One account's balance (0 when it has no entries yet). */
export async function balanceOf(db: Db, ref: AccountRef): Promise<number> {
  const [row] = await rowsOf<{ total: string | number }>(
    db,
    sql`select coalesce(sum(amount_cents), 0)::bigint as total from ledger_entries
        where account_id = ${accountId(ref)}`,
  )
  return Number(row?.total ?? 0)
}

/** Every kind's total over all accounts of that kind. */
export async function totalsByKind(db: Db): Promise<Record<LedgerAccountKind, number>> {
  const rows = await rowsOf<{ kind: LedgerAccountKind; total: string | number }>(
    db,
    sql`select a.kind, coalesce(sum(e.amount_cents), 0)::bigint as total
        from ledger_entries e join ledger_accounts a on a.id = e.account_id group by a.kind`,
  )
  const out = {
    buyers: 0,
    held: 0,
    held_fees: 0,
    available: 0,
    on_its_way: 0,
    paid_out: 0,
    fees: 0,
    shipping: 0,
    carriers: 0,
  } satisfies Record<LedgerAccountKind, number>
  for (const r of rows) out[r.kind] = Number(r.total)
  return out
}

/**
 * The ledger's own check: transactions whose entries do not sum to zero (the database refuses them at commit,
 * so this finds only what was written around it), and the sum of every entry.
 */
export async function ledgerIntegrity(db: Db): Promise<{ unbalancedTransactions: number; total: number }> {
  const [row] = await rowsOf<{ unbalanced: string | number; total: string | number }>(
    db,
    sql`select
          (select count(*) from (select transaction_id from ledger_entries group by transaction_id
             having sum(amount_cents) <> 0) u)::bigint as unbalanced,
          (select coalesce(sum(amount_cents), 0) from ledger_entries)::bigint as total`,
  )
  return { unbalancedTransactions: Number(row?.unbalanced ?? 0), total: Number(row?.total ?? 0) }
}

export type LedgerCheck = {
  unbalancedTransactions: number
  /** The sum of every entry (zero when the ledger balances). */
  total: number
  /** Money taken from buyers less refunds, by the ledger. */
  ledgerChargesCents: number
  /** The sum of succeeded payments, by the payments' own records. */
  paymentsCents: number
  balanced: boolean
}

/**
 * `ledgerIntegrity` and the ledger against the payments: the money the ledger says was taken from buyers (less
 * refunds) equals the succeeded payments. What the admins' Finance page shows and the daily reconciliation checks.
 */
export async function ledgerCheck(db: Db): Promise<LedgerCheck> {
  const [integrity, buyers, payments] = await Promise.all([
    ledgerIntegrity(db),
    balanceOf(db, { kind: 'buyers' }),
    rowsOf<{ total: string | number }>(
      db,
      sql`select coalesce(sum(amount_cents), 0)::bigint as total from payments where status = 'succeeded'`,
    ),
  ])
  const ledgerChargesCents = 0 - buyers
  const paymentsCents = Number(payments[0]?.total ?? 0)
  return {
    ...integrity,
    ledgerChargesCents,
    paymentsCents,
    balanced:
      integrity.unbalancedTransactions === 0 && integrity.total === 0 && ledgerChargesCents === paymentsCents,
  }
}

export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows
}
