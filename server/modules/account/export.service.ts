import { type SQL, sql } from 'drizzle-orm'
import { AUDIT_KINDS } from '#contract/audit'
import type { Db } from '#server/db/client'
import { escapeHtml } from '#server/mail/templates/layout'
import { findSecurityEvents } from '#server/modules/audit'

// A person's data, to take away: one indented JSON file in named sections (docs/data-export.md describes it), and a
// short HTML page that says the same in a few lines a person can read.

export const EXPORT_FORMAT = 'laptop-market-export/2'

/** Columns that hold a secret (a password hash, a session or OAuth token, an authenticator secret): never exported. */
const SECRET_COLUMN = /password|token|secret|backup_codes/i

async function rowsOf<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows
}

/** Tables whose rows point at a person through a foreign key to users, and the column that does. */
export async function tablesReferencingUsers(db: Db): Promise<{ table: string; column: string }[]> {
  const found = await rowsOf<{ table: string; column: string }>(
    db,
    sql`
    select c.conrelid::regclass::text as "table", a.attname as "column"
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.contype = 'f' and c.confrelid = 'users'::regclass
    order by 1, 2`,
  )
  return found.filter((f) => /^[a-z_][a-z0-9_]*$/.test(f.table) && /^[a-z_][a-z0-9_]*$/.test(f.column))
}

function clean(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(row)) {
    if (SECRET_COLUMN.test(key)) continue
    out[key] = value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? Number(value) : value
  }
  return out
}

/**
 * Each kind of record, by the table and the column that points at the person, as the export names it: a title, and
 * a line on what it is. The order is the file's. A table added later and not named here still goes in the file, as
 * "More records about you" (so nothing held is ever left out).
 */
const SECTIONS: { source: string; title: string; about: string }[] = [
  {
    source: 'products.seller_id',
    title: 'Laptops you listed',
    about: 'Every listing you made, on sale or not.',
  },
  {
    source: 'bookings.buyer_id',
    title: 'Laptops you booked or bought',
    about: 'Your bookings, with the contact details you gave the seller and how far each deal went.',
  },
  {
    source: 'booking_holds.buyer_id',
    title: 'Laptops you held',
    about: 'The short holds that keep a laptop for you while you pay.',
  },
  {
    source: 'payments.buyer_id',
    title: 'Payments you made',
    about: 'Card payments for your bookings (no card number).',
  },
  { source: 'offers.buyer_id', title: 'Offers you made', about: 'Prices you offered sellers.' },
  { source: 'offers.seller_id', title: 'Offers on your laptops', about: 'Prices buyers offered you.' },
  {
    source: 'messages.sender_id',
    title: 'Messages you wrote',
    about: 'What you wrote in conversations about a deal.',
  },
  {
    source: 'message_reads.user_id',
    title: 'Conversations you read',
    about: 'When you last read each conversation.',
  },
  { source: 'messages.reported_by', title: 'Messages you reported', about: 'Messages you reported to us.' },
  {
    source: 'questions.asker_id',
    title: 'Questions you asked',
    about: 'Questions you asked sellers before buying, with their answers.',
  },
  {
    source: 'questions.seller_id',
    title: 'Questions about your laptops',
    about: 'Questions buyers asked you, with your answers and whether you showed them on the listing.',
  },
  {
    source: 'question_blocks.seller_id',
    title: 'People you stopped from asking',
    about: 'Askers whose questions you no longer take.',
  },
  {
    source: 'question_blocks.asker_id',
    title: 'Sellers who stopped your questions',
    about: 'Sellers who no longer take questions from you.',
  },
  { source: 'reviews.author_id', title: 'Reviews you wrote', about: 'Your ratings of buyers and sellers.' },
  { source: 'reviews.subject_id', title: 'Reviews about you', about: 'Ratings others gave you.' },
  { source: 'reports.reporter_id', title: 'Listings you reported', about: 'Your reports and their outcome.' },
  { source: 'review_reports.reporter_id', title: 'Reviews you reported', about: 'Your reports of reviews.' },
  {
    source: 'disputes.opened_by',
    title: 'Problems you reported',
    about: 'Deals you reported a problem with.',
  },
  {
    source: 'favourites.user_id',
    title: 'Your favourites',
    about: 'Laptops you saved, with any price alert.',
  },
  {
    source: 'saved_searches.user_id',
    title: 'Your saved searches',
    about: 'Searches you saved and their alerts.',
  },
  {
    source: 'alert_items.user_id',
    title: 'Alerts waiting for you',
    about: 'News gathered for your next alert email.',
  },
  {
    source: 'email_preferences.user_id',
    title: 'Your email choices',
    about: 'The kinds of email you turned off.',
  },
  { source: 'uploads.uploader_id', title: 'Photos you uploaded', about: 'Each photo file you uploaded.' },
  {
    source: 'battery_reports.uploader_id',
    title: 'Battery reports you uploaded',
    about: 'Battery reports attached to your listings.',
  },
  {
    source: 'stolen_serials.reported_by',
    title: 'Serial numbers you reported stolen',
    about: 'Your reports.',
  },
  {
    source: 'booking_events.actor_id',
    title: 'Steps you took in deals',
    about: 'Each step of a deal you made.',
  },
  {
    source: 'payout_accounts.seller_id',
    title: 'Where we pay you',
    about: 'Your payout account (no full bank number).',
  },
  { source: 'payouts.seller_id', title: 'Payouts to you', about: 'Money we sent you for your sales.' },
  {
    source: 'payout_reminders.seller_id',
    title: 'Payout reminders',
    about: 'Reminders to set up your payouts.',
  },
  {
    source: 'ledger_accounts.seller_id',
    title: 'Your money accounts',
    about: 'The ledger accounts that hold your money.',
  },
  {
    source: 'ledger_transactions.seller_id',
    title: 'Money movements',
    about: 'Every movement of money for your sales, from payment to payout.',
  },
  {
    source: 'accounts.user_id',
    title: 'Ways you sign in',
    about: 'Password or Google (the password hash is left out).',
  },
  {
    source: 'passkeys.user_id',
    title: 'Your passkeys',
    about: 'Passkeys you added (their keys stay on your device).',
  },
  {
    source: 'two_factors.user_id',
    title: 'Two-step sign-in',
    about: 'Whether it is set up (the secret and backup codes are left out).',
  },
  {
    source: 'sessions.user_id',
    title: 'Where you are signed in',
    about: 'Your sessions: browser, address, when.',
  },
  // Moderation others did that names the person as its moderator (admins only).
  { source: 'products.reviewed_by', title: 'Listings you reviewed', about: 'As an admin.' },
  { source: 'reports.resolved_by', title: 'Reports you handled', about: 'As an admin.' },
  { source: 'review_reports.resolved_by', title: 'Review reports you handled', about: 'As an admin.' },
  { source: 'reviews.removed_by', title: 'Reviews you removed', about: 'As an admin.' },
  { source: 'disputes.resolved_by', title: 'Problems you resolved', about: 'As an admin.' },
]

export type ExportSection = {
  title: string
  about: string
  count: number
  items: Record<string, unknown>[]
}

export type AccountExport = {
  about_this_file: string
  format: typeof EXPORT_FORMAT
  exported_at: string
  you: Record<string, unknown>
  sections: ExportSection[]
  security_events: {
    title: string
    about: string
    count: number
    items: (Awaited<ReturnType<typeof findSecurityEvents>>[number] & { what: string })[]
  }
}

/**
 * Everything held about a person: their user row, and every row of every table whose foreign key points at
 * them (found from the database's own catalogue, so a new table is in the export the day it is added),
 * with secrets left out, in named sections; and every security event of theirs from the audit log.
 */
export async function exportAccount(db: Db, userId: string): Promise<AccountExport> {
  const [profile] = await rowsOf(db, sql`select * from users where id = ${userId}`)
  const found = new Map<string, Record<string, unknown>[]>()
  for (const { table, column } of await tablesReferencingUsers(db)) {
    const rows = await rowsOf(
      db,
      sql`select * from ${sql.identifier(table)} where ${sql.identifier(column)} = ${userId}`,
    )
    if (rows.length > 0) found.set(`${table}.${column}`, rows.map(clean))
  }
  const sections: ExportSection[] = []
  for (const { source, title, about } of SECTIONS) {
    const items = found.get(source)
    found.delete(source)
    if (items) sections.push({ title, about, count: items.length, items })
  }
  for (const [source, items] of found) {
    sections.push({
      title: 'More records about you',
      about: `Records kept in "${source.split('.')[0]}".`,
      count: items.length,
      items,
    })
  }
  const events = await findSecurityEvents(db, userId, null)
  return {
    about_this_file:
      'Everything Laptop Market holds about you, as of exported_at. Each section names what its records are; the fields are described in the data export guide on our privacy page. Secrets (your password hash, sign-in tokens, your authenticator key) are left out.',
    format: EXPORT_FORMAT,
    exported_at: new Date().toISOString(),
    you: clean(profile ?? {}),
    sections,
    security_events: {
      title: 'Security events',
      about:
        'Every sign-in, sign-out and change to how you sign in, newest first, with the address and browser.',
      count: events.length,
      items: events.map((e) => ({ ...e, what: AUDIT_KINDS[e.kind as keyof typeof AUDIT_KINDS] ?? e.kind })),
    },
  }
}

/** The export as the file holds it: JSON indented by two spaces, one field per line. */
export function exportJson(data: AccountExport): string {
  return `${JSON.stringify(data, null, 2)}\n`
}

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

/** A short page a person can read: who the file is about, how many records of each kind, the latest security events. */
export function exportSummaryHtml(data: AccountExport): string {
  const you = data.you as { name?: string; email?: string; role?: string; created_at?: string }
  const rows = data.sections
    .map(
      (s) =>
        `<tr><td>${escapeHtml(s.title)}<br><small>${escapeHtml(s.about)}</small></td><td>${s.count}</td></tr>`,
    )
    .join('\n')
  const latest = data.security_events.items
    .slice(0, 10)
    .map(
      (e) =>
        `<li>${escapeHtml(when(e.at))}: ${escapeHtml(e.what)}${e.result === 'success' ? '' : ` (${escapeHtml(e.result)})`}${e.ip ? `, from ${escapeHtml(e.ip)}` : ''}</li>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your Laptop Market data: summary</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;color:#0f172a;max-width:44rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:2rem}table{border-collapse:collapse;width:100%}
td{border-top:1px solid #e2e8f0;padding:.5rem .25rem;vertical-align:top}td:last-child{text-align:right;font-weight:600}
small{color:#475569}
</style>
</head>
<body>
<h1>Your Laptop Market data</h1>
<p>Exported ${escapeHtml(when(data.exported_at))} for <strong>${escapeHtml(you.name ?? '')}</strong> (${escapeHtml(you.email ?? '')}), a ${escapeHtml(you.role ?? '')} account since ${escapeHtml((you.created_at ?? '').slice(0, 10))}.</p>
<p>This page sums up the file <code>laptop-market-data-${escapeHtml(data.exported_at.slice(0, 10))}.json</code>, which holds every record itself. Secrets (your password hash, sign-in tokens, your authenticator key) are in neither.</p>
<h2>What we hold</h2>
<table>
${rows || '<tr><td>No records besides your profile.</td><td>0</td></tr>'}
<tr><td>Security events<br><small>${escapeHtml(data.security_events.about)}</small></td><td>${data.security_events.count}</td></tr>
</table>
<h2>Latest security events</h2>
${latest ? `<ul>\n${latest}\n</ul>` : '<p>None yet.</p>'}
<p><small>The file's format (${escapeHtml(data.format)}) is described on the privacy page of Laptop Market.</small></p>
</body>
</html>
`
}
