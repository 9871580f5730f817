// The daily reconciliation (docs/decisions/0046): the ledger against the processor's own records.
//
// With Stripe: every transfer Stripe has made is matched to our payout (its transfer group and metadata name
// it), amount for amount, and what Stripe reversed of it to the reversals and failures the ledger wrote. A
// payout left `pending` (a run that died between Stripe's transfer and its record) is mended: the transfer is
// found by its group, or asked for again under the same idempotency key, and recorded; the ledger had moved
// the money already, so nothing moves twice. A transferred payout whose bank payout was never asked for is asked
// for. Without Stripe: every payout against its ledger movements, and test payouts that should have landed.
// Both: the ledger's own check (each transaction sums to zero, charges equal succeeded payments).
//
// What cannot be mended is a difference for a person to look at: it goes to the audit log (admins read it
// at /admin/audit) as a failed `finance.reconcile`, and to the log as a warning.
import { and, eq, lt, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { payouts } from '#server/db/schema'
import { writeAudit } from '#server/lib/audit'
import type { Connect } from '#server/lib/payment-provider'
import { ledgerCheck, rowsOf } from '#server/modules/ledger'
import { finishConnectPayout, requestBankPayout, STALE_PENDING_SECONDS } from './connect-payouts'
import type { PayoutDeps } from './payout-deps'

export type Reconciliation = {
  /** Payouts left pending by a run that died, now recorded (or refused by Stripe and returned). */
  mended: number
  /** Bank payouts asked for that had not been. */
  bankPayoutsRequested: number
  /** Transfers seen at the processor (Stripe) or payouts checked (test mode). */
  checked: number
  differences: string[]
}

/** Finishes the Stripe payouts a run left pending: the transfer found (or made under the same key) and recorded. */
export async function finishStalePayouts(deps: PayoutDeps, connect: Connect): Promise<number> {
  const stale = await deps.db
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.state, 'pending'),
        eq(payouts.provider, 'stripe'),
        lt(payouts.createdAt, sql`now() - make_interval(secs => ${STALE_PENDING_SECONDS})`),
      ),
    )
  let mended = 0
  for (const payout of stale) {
    try {
      const outcome = await finishConnectPayout(deps, connect, payout, { lookUpFirst: true })
      if (outcome !== 'already') mended++
    } catch {
      // Stripe could not be reached: the next run or reconciliation tries again.
    }
  }
  return mended
}

type LedgerPayout = {
  id: string
  seller_id: string
  state: string
  provider: 'stripe' | 'test'
  amount_cents: string | number
  stripe_transfer_id: string | null
  stripe_payout_id: string | null
  arrives_at: Date | string | null
  out: string | number | null
  returned: string | number | null
  landed: string | number | null
}

/** Each payout with what the ledger moved for it: out (payout), returned (failed + reversal), landed. */
async function payoutsWithLedger(deps: PayoutDeps): Promise<LedgerPayout[]> {
  return rowsOf<LedgerPayout>(
    deps.db,
    sql`select p.id, p.seller_id, p.state, p.provider, p.amount_cents, p.stripe_transfer_id, p.stripe_payout_id,
          p.arrives_at,
          (select sum(e.amount_cents) from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
             where t.payout_id = p.id and t.kind = 'payout' and e.account_id = 'on_its_way:' || p.seller_id) as out,
          (select sum(e.amount_cents) from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
             where t.payout_id = p.id and t.kind in ('payout_failed', 'reversal')
               and e.account_id = 'available:' || p.seller_id) as returned,
          (select sum(e.amount_cents) from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
             where t.payout_id = p.id and t.kind = 'payout_paid'
               and e.account_id = 'paid_out:' || p.seller_id) as landed
        from payouts p`,
  )
}

export async function reconcile(
  deps: PayoutDeps,
  log?: Pick<FastifyBaseLogger, 'warn' | 'info'>,
): Promise<Reconciliation> {
  const connect = deps.payments?.connect ?? null
  const differences: string[] = []
  let mended = 0
  let bankPayoutsRequested = 0
  let checked = 0

  if (connect) mended = await finishStalePayouts(deps, connect)
  const rows = await payoutsWithLedger(deps)
  for (const p of rows) {
    const amount = Number(p.amount_cents)
    if (Number(p.out ?? 0) !== amount) {
      differences.push(
        `payout ${p.id}: the ledger moved ${Number(p.out ?? 0)} cents out for a payout of ${amount}`,
      )
    }
    if (p.state === 'failed' && p.provider === 'test' && Number(p.returned ?? 0) !== amount) {
      differences.push(
        `payout ${p.id}: failed, but the ledger returned ${Number(p.returned ?? 0)} of ${amount} cents`,
      )
    }
    if (
      p.provider === 'test' &&
      p.state === 'in_transit' &&
      p.arrives_at &&
      new Date(p.arrives_at).getTime() < Date.now() - 3_600_000
    ) {
      differences.push(`payout ${p.id}: a test payout due to land more than an hour ago has not`)
    }
  }

  if (connect) {
    const ours = new Map(rows.filter((r) => r.provider === 'stripe').map((r) => [r.id, r]))
    const seen = new Set<string>()
    for await (const transfer of connect.transfers()) {
      checked++
      const payout = transfer.payoutId ? ours.get(transfer.payoutId) : undefined
      if (!payout) {
        differences.push(
          `Stripe transfer ${transfer.id} (${transfer.amountCents} cents) matches no payout here`,
        )
        continue
      }
      seen.add(payout.id)
      if (payout.stripe_transfer_id !== transfer.id) {
        differences.push(
          `payout ${payout.id}: Stripe made transfer ${transfer.id}, the payout records ${payout.stripe_transfer_id ?? 'none'}`,
        )
      }
      if (transfer.amountCents !== Number(payout.amount_cents)) {
        differences.push(
          `payout ${payout.id}: Stripe transferred ${transfer.amountCents} cents, the payout is ${Number(payout.amount_cents)}`,
        )
      }
      const returned = Number(payout.returned ?? 0)
      if (transfer.reversedCents !== returned) {
        differences.push(
          `payout ${payout.id}: Stripe reversed ${transfer.reversedCents} cents of its transfer, the ledger took back ${returned}`,
        )
      }
      if (payout.state === 'in_transit' && !payout.stripe_payout_id) {
        const [row] = await deps.db.select().from(payouts).where(eq(payouts.id, payout.id))
        if (row && Date.now() - row.updatedAt.getTime() > STALE_PENDING_SECONDS * 1000) {
          await requestBankPayout(deps, connect, row, transfer.destination)
          bankPayoutsRequested++
        }
      }
    }
    for (const payout of ours.values()) {
      if (payout.stripe_transfer_id && !seen.has(payout.id)) {
        differences.push(
          `payout ${payout.id}: records Stripe transfer ${payout.stripe_transfer_id}, which Stripe does not have`,
        )
      }
    }
  } else {
    checked = rows.length
  }

  const check = await ledgerCheck(deps.db)
  if (!check.balanced) {
    differences.push(
      `the ledger does not balance: ${check.unbalancedTransactions} unbalanced transactions, charges ${check.ledgerChargesCents} against payments ${check.paymentsCents}`,
    )
  }

  const result: Reconciliation = { mended, bankPayoutsRequested, checked, differences }
  const summary = `${checked} checked, ${mended} mended, ${differences.length} differences`
  await writeAudit(deps.db, {
    actorId: null,
    kind: 'finance.reconcile',
    target: null,
    result: differences.length === 0 ? 'success' : 'failure',
    detail: differences.length === 0 ? summary : `${summary}: ${differences[0]}`,
    ip: null,
    userAgent: null,
  })
  if (differences.length > 0) log?.warn({ differences, mended }, 'reconciliation found differences')
  else log?.info({ checked, mended }, 'reconciliation: the ledger matches the processor')
  return result
}
