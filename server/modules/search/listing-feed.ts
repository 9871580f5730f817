import { type SQL, sql } from 'drizzle-orm'
import type { Database, Db } from '#server/db/client'
import { listenFor } from '#server/db/listening'
import { isOnSale } from '#server/lib/on-sale'
import { rowsOf } from '#server/lib/paging'
import { readVersion } from './facet-columns'
import { mergeInOrder } from './facts-pages'
import { onceEach } from './kept-per-copy'
import {
  DAY_MS,
  FACT_COLUMNS,
  type FactRow,
  factsFromRows,
  type ListingFacts,
  postedUs,
  readFacts,
  rowOf,
} from './listing-facts'
import { baseOf, type FactsView, type MarkedPart, markedPart, wholeView } from './listing-view'
import { askView, type PoolAsk, type ViewAnswer } from './search-pool'

// Each instance's copy of the listings (listing-facts.ts) kept current by applying the change feed: the listings
// changed since the copy's version (migration 0027 notes them in the changing transaction, and the version each
// transaction committed as) are read, and the copy becomes a new view: the same base less their old rows, plus a
// small copy of them as they are now. Nothing is read whole again until the changes pile up; then a whole read runs
// in the background while searches go on from the view. docs/decisions/0037-listing-change-feed.md. A commit too
// large to apply (a bulk load) is read apart, its listings alone, into a part of the view of its own (decision 0127).

type Logger = { error: (obj: object, msg: string) => void; info?: (obj: object, msg: string) => void }

type State = {
  view?: FactsView
  changes: Changes
  /** One application of the feed at a time. */
  applying?: Promise<FactsView | undefined>
  /** One whole read at a time. */
  loading?: Promise<ListingFacts>
  loadMs: number
  /** Set by keepListingsCurrent (not ready until its first view); `stopped` aborts its reads apart when it stops. */
  kept?: { log: Logger; stopped: AbortSignal; readCopy?: ReadCopy; applyFloor: number }
  /** The read under way of the listings of the commits left out (readPart). */
  readingPart?: Promise<void>
  /** Whether the view's base was read apart: then a rebase costs the requests nothing (rebaseAt). */
  readApart?: boolean
  /**
   * The whole read under way because the feed could not bring the view up (pruned past it, or too many changes with
   * no commit to leave out: Changes.leftOut): until it ends, requests are answered by SQL rather than wait.
   */
  farBehind?: Promise<ListingFacts>
  /** Settles when the searches that asked SQL while the copy is read whole have been answered (searchWhileRead). */
  sqlTurn: Promise<void>
  /** Background whole reads failed in a row (readAgain), and when the next may start. */
  readFailures: number
  readAgainAt: number
  /** When a change last moved the view (Date.now()). */
  movedAt: number
  /** The version read under way for searches under writes, and when it was sent; the next, once it ends (versionSince). */
  versionRead?: { sentAt: number; version: Promise<string> }
  nextVersionRead?: Promise<string>
  /** Work the instance does on its copy before it says it is ready (holdReady: the warm-up). */
  warming?: Promise<void>
}

/** The listings changed since a view's base was read, as the view's parts hold them. */
type Changes = {
  /** Those on sale, as they are now. */
  records: Map<string, FactRow>
  /** Those changed since the view's last part was made: the delta's, when on sale. */
  recent: Set<string>
  /**
   * Per part settled from the feed (the view's last parts, after those read from the database: the base, then one per
   * bulk load read apart by readPart), the posting time of each listing it holds, to find its row there: first every
   * listing changed since the base as it was when that part was made; then each level's, those changed since the level
   * before it was made, as they were when it was made (SETTLED_AT_MOST).
   */
  settled: Map<string, number>[]
  /**
   * The versions of commits too large to apply (readBulk), in the order they committed, left to a read of their
   * listings (readPart) or a whole read: until one lands, the listings they changed are out of the view unless changed
   * again since.
   */
  leftOut?: string[]
}

const noChanges = (): Changes => ({ records: new Map(), recent: new Set(), settled: [] })

/** How many of a view's first parts were read from the database (the base, then each bulk load read apart). */
const partsRead = (view: FactsView, changes: Changes) => view.parts.length - changes.settled.length

/** More parts read apart than this (the base and two bulk loads): the copy is read whole again, into one. */
const MOST_READS = 3

/**
 * The delta (the listings changed since the last part, made again at every change) is settled, once it holds more than
 * DELTA_AT_MOST, into levels (Changes.settled, settleLevel). A level of up to SETTLED_AT_MOST[k] listings is made again
 * about every SETTLED_AT_MOST[k + 1] changes, so the whole pile (15 µs a listing of the main thread) only every 8,192 or
 * so. Decision 0132.
 */
const DELTA_AT_MOST = 16
const SETTLED_AT_MOST = [Number.POSITIVE_INFINITY, 8_192, 1_024, 128]

/**
 * Reads the copy whole on a worker thread, or the listings on sale that the commits at `commits` changed; stops when
 * `signal` aborts. `background`: a view answers meanwhile, so the read yields to the searches (facts-worker.ts).
 */
export type ReadCopy = (
  signal: AbortSignal,
  read: { commits?: string[]; background: boolean },
) => Promise<ListingFacts>

/** Per database (tests open many in one process). */
const stateOf = onceEach(
  (_: Db): State => ({
    changes: noChanges(),
    loadMs: 0,
    sqlTurn: Promise.resolve(),
    readFailures: 0,
    readAgainAt: 0,
    movedAt: 0,
  }),
)

const newer = (a: string, b: string) => BigInt(a) > BigInt(b)

/** Aborts when the instance keeping the copy current stops (never, when none does). */
const stoppedOf = (s: State) => s.kept?.stopped ?? new AbortController().signal

/**
 * Changes piled up past this many listings: the copy is read whole again, in the background. Settled in levels, the
 * pile can grow to a fiftieth of the listings (20,000 at 1,000,000: a whole read every 1,000 s at 20 changes a second);
 * read whole on a thread of its own (readCopy), a copy costs the requests nothing but that thread's CPU.
 */
const rebaseAt = (s: State, size: number) =>
  s.readApart ? Math.min(20_000, Math.max(2_000, Math.floor(size / 50))) : applyAtMost(s, size)

/** At least this many changes in one application, whatever the copy's size, before some are left to a read. */
const APPLY_FLOOR = 5_000

/**
 * More changes than this in one application (a bulk import): the commits too large to apply are left to a read. The
 * floor is the instance's (keepListingsCurrent): tests make bulk imports of a hundred listings rather than 5,000.
 */
const applyAtMost = (s: State, size: number) =>
  Math.min(50_000, Math.max(s.kept?.applyFloor ?? APPLY_FLOOR, Math.floor(size / 10)))

/** Reads the copy whole now (the first load, tests, and a rebase once changes pile up); searches go on meanwhile. */
export function loadFacts(db: Db): Promise<ListingFacts> {
  const s = stateOf(db)
  if (s.loading) return s.loading
  const started = Date.now()
  const stopped = stoppedOf(s)
  s.loading = (async () => {
    const apart = s.kept?.readCopy
    let readApart = apart !== undefined
    const base = await (apart
      ? apart(stopped, { background: s.view !== undefined }).catch((err) => {
          // Stopped with the instance: nothing to read any more.
          if (stopped.aborted) throw err
          logFailure(s, err, READ_HERE)
          readApart = false
          return readFacts(db)
        })
      : readFacts(db))
    let next = { view: wholeView(base), changes: noChanges() }
    // Changes committed while it was read: applied to the new base before it replaces the view. Applications of the
    // feed to the old view go on meanwhile; the new base catches up again when one overtakes it (a few rounds),
    // rather than being thrown away for being behind.
    const behind = () => s.view !== undefined && newer(s.view.version, next.view.version)
    for (let round = 0; round < 5 && behind(); round++) {
      const applied = await applyFeed(db, next.view, next.changes)
      if (!applied) break
      next = applied
    }
    if (!behind()) {
      s.view = next.view
      s.changes = next.changes
      s.readApart = readApart
    }
    s.loadMs = Date.now() - started
    s.kept?.log.info?.(
      { listings: base.size, ms: s.loadMs, apart: readApart },
      'Search read its copy of the listings whole',
    )
    return base
  })().finally(() => {
    s.loading = undefined
  })
  return s.loading
}

/**
 * The listings changed between the view's version and now, applied to it: a new view (the old one is left as it
 * was, for the requests reading it). Undefined when the feed cannot say (it was pruned past the view's version, or
 * the changes are too many): the copy must be read whole.
 */
async function applyFeed(db: Db, view: FactsView, changes: Changes, knownBehind = false) {
  // The version alone first (one indexed row): most polls find nothing new.
  if (!knownBehind && !newer(await readVersion(db), view.version)) return { view, changes }
  const limit = applyAtMost(stateOf(db), view.size)
  let rows = await readChanges(db, view.version, limit)
  let head = rows[0]
  if (!head || !newer(head.feed_version, view.version)) return { view, changes }
  const pruned = (h: ChangeRow) => h.oldest === null || newer(h.oldest, String(BigInt(view.version) + 1n))
  if (pruned(head)) return undefined
  let bulkRows: ChangedListing[] = []
  if (Number(head.changed) > limit) {
    // Too many to apply: the commits among them too large to apply (a bulk import) are left to a whole read, and
    // the rest applied, so that searches go on from the view (without the bulk's listings until the read lands)
    // and every other change still shows at once. Decision 0111.
    const bulk = await readBulk(db, view.version, head.feed_version, limit)
    if (!bulk) return undefined
    rows = await readChanges(db, view.version, limit, bulk.versions)
    head = rows[0]
    if (!head || pruned(head) || Number(head.changed) > limit) return undefined
    // Every listing of theirs that the view may hold leaves it now, as if taken off sale (marks alone: nothing is
    // built); those still on sale come back with the whole read, or as they are now when they change again before it.
    bulkRows = bulk.rows.map((r) => ({ ...r, on_sale: false }))
    // Left for the read: the commits' listings on sale now (a bulk import's new ones), unless there are none.
    if (bulk.anyOnSale) changes = { ...changes, leftOut: [...(changes.leftOut ?? []), ...bulk.versions] }
  }
  const version = head.feed_version
  // The left-out commits' listings first, then the rest (as they are now).
  const changed = [...bulkRows, ...rows].filter((r) => r.changed_id !== null)
  if (changed.length === 0) return { view: { ...view, version }, changes }
  // Changed in place, not copied (a copy at every application cost as much as the pile of changes, 20,000 listings at
  // 1,000,000): only the view this application makes is used with them, and the view before it never reads them.
  const { records } = changes
  let recent = new Set(changes.recent)
  // The rows found changed now are marked in each part's one array at this application's number: the views before it
  // (requests still reading them) do not count them, this one and those after do (DeadMarks). Applications are one at
  // a time per copy, and an application's view is dropped only for a copy read whole since (or when it fails).
  const marks = view.parts.map((part) => ({ part, upTo: part.dead.upTo + 1, rows: new Set<number>() }))
  const mark = (i: number, r: number) => {
    const m = marks[i]
    if (!m || r < 0) return
    // Marked by this view or one before it: already among its dead rows. A mark past the view's own number was left
    // by an application that failed before it made a view (none other can have a larger number): written over.
    const at = m.part.dead.at[r] as number
    if (at !== 0 && at <= m.part.dead.upTo) return
    Atomics.store(m.part.dead.at, r, m.upTo)
    m.rows.add(r)
  }
  const reads = partsRead(view, changes)
  for (const row of changed) {
    const id = row.changed_id as string
    // The parts read from the database hold a listing at the posting time it had then: one it had since, or has now.
    for (const posted of new Set([...(row.was_posted ?? []), ...(row.posted ? [row.posted] : [])]))
      for (let i = 0; i < reads; i++) mark(i, rowOf((view.parts[i] as MarkedPart).facts, id, Number(posted)))
    changes.settled.forEach((held, k) => {
      const posted = held.get(id)
      const part = view.parts[reads + k]
      if (part && posted !== undefined) mark(reads + k, rowOf(part.facts, id, posted))
    })
    recent.add(id)
    if (row.on_sale && row.id) records.set(id, row as FactRow)
    else records.delete(id)
  }
  let parts: MarkedPart[] = marks.map(({ part, upTo, rows }) => ({
    facts: part.facts,
    dead: { at: part.dead.at, upTo },
    // The rows marked now merged in (one pass, not a sort of them all again).
    deadRows: rows.size > 0 ? mergeInOrder([part.deadRows, Int32Array.from(rows).sort()]) : part.deadRows,
  }))
  const onSale = (ids: Set<string>) => [...ids].flatMap((id) => records.get(id) ?? [])
  let settled = changes.settled
  if (recent.size > DELTA_AT_MOST) {
    const { level, since } = settleLevel(settled, recent)
    const rows = onSale(since)
    parts = [...parts.slice(0, reads + level), markedPart(factsFromRows(version, rows))]
    settled = [...settled.slice(0, level), new Map(rows.map((r) => [r.id, Number(r.posted)]))]
    recent = new Set()
  }
  const delta = factsFromRows(version, onSale(recent))
  const size = parts.reduce((n, p) => n + p.facts.size - p.deadRows.length, delta.size)
  return { view: { version, parts, delta, size }, changes: { ...changes, recent, settled } }
}

/**
 * The level of the parts settled from the feed that the delta's listings (`recent`) settle into, with the listings it
 * then holds: the deepest that fits them with those of the levels after it (a new one while there is room); the first
 * fits every listing changed since the base (SETTLED_AT_MOST).
 */
export function settleLevel(
  settled: ReadonlyMap<string, unknown>[],
  recent: ReadonlySet<string>,
  most: readonly number[] = SETTLED_AT_MOST,
): { level: number; since: Set<string> } {
  let level = Math.min(settled.length, most.length - 1)
  const since = new Set(recent)
  for (const held of settled.slice(level)) for (const id of held.keys()) since.add(id)
  while (level > 0 && since.size > (most[level] as number)) {
    level--
    for (const id of (settled[level] as ReadonlyMap<string, unknown>).keys()) since.add(id)
  }
  return { level, since }
}

/** A listing changed: as it is now (when on sale), with the posting times it had. */
type ChangedListing = Partial<FactRow> & {
  changed_id: string | null
  was_posted: string[] | null
  on_sale: boolean | null
}

type ChangeRow = ChangedListing & { feed_version: string; oldest: string | null; changed: string }

/**
 * The changes of the commits `where` picks (a condition on listing_change_commits): each listing changed, its posting
 * time before the change, whether the change created it. Read by the transaction's index one commit at a time (`offset
 * 0` keeps that a lookup per commit: a bulk import's one transaction of thousands of changes skews the statistics of
 * `tx`, and the planner then hashed the whole feed, 12 ms at every commit at 100,000 listings).
 */
const changesOf = (where: SQL) => sql`(select c.product_id, c.posted_on, c.created
  from (select tx from listing_change_commits where ${where}) k cross join lateral (
    select product_id, posted_on, created from listing_changes c where c.tx = k.tx offset 0) c)`

/** Per listing changed (grouped by it), the posting times it had before its changes (as FactRow holds them). */
const POSTED_BEFORE = sql.raw(`array_agg(distinct ${postedUs('c.posted_on')})`)

/**
 * One statement: the version; the commits since `version` (but those in `skip`), and their changes (changesOf); and
 * every listing changed as it is now (none when only brands moved the version on), with the posting times it had
 * (where the base holds it). Past `limit` changes only the count is read.
 */
function readChanges(db: Db, version: string, limit: number, skip: string[] = []) {
  return rowsOf<ChangeRow>(
    db,
    sql`with v as (select version from listing_counts_version where id),
      c as ${changesOf(sql`version > ${version} and version <= (select version from v)
        and version <> all(${`{${skip.join(',')}}`}::bigint[])`)},
      n as (select count(*) as changed from c),
      ch as (
        select c.product_id as changed_id, ${POSTED_BEFORE} as was_posted
        from c where (select changed from n) <= ${limit}
        group by c.product_id)
      select (select version::text from v) as feed_version,
        (select min(version)::text from listing_change_commits) as oldest, (select changed::text from n) as changed,
        ch.changed_id::text as changed_id, ch.was_posted, ${FACT_COLUMNS}, ${isOnSale} as on_sale
      from (select 1) as one
      left join (ch left join products on products.id = ch.changed_id) on true`,
  )
}

/**
 * The commits between `version` and `upTo` too large to apply (more than a quarter of `limit` changes each: a bulk
 * import, a seller's every listing), the listings they changed that the view may hold (all but those the commits
 * created: a bulk import of new listings reads a row of none) with the posting times they had, and whether any of their
 * listings is on sale now; undefined when no commit is that large.
 */
async function readBulk(db: Db, version: string, upTo: string, limit: number) {
  const large = Math.floor(limit / 4)
  const rows = await rowsOf<
    { versions: string[] | null; any_on_sale: boolean } & Omit<ChangedListing, 'on_sale'>
  >(
    db,
    // Each commit's changes counted only as far as `large` + 1. A listing a commit created (migration 0053) is held by
    // no view before it. Whether one is on sale is looked up by id until one is: joined to `products`, the planner
    // hashed every listing to find a bulk load's, 1.3 s at 1,000,000 while every search waited for the application
    // (75 ms now). Decision 0139.
    sql`with b as (select k.version from listing_change_commits k
        where k.version > ${version} and k.version <= ${upTo}
          and (select count(*) from (select 1 from listing_changes c where c.tx = k.tx limit ${large + 1}) n) > ${large}),
      c as ${changesOf(sql`version in (select version from b)`)},
      l as (select c.product_id, ${POSTED_BEFORE} as was_posted from c
        where c.product_id in (select product_id from c where not created)
        group by c.product_id)
      select (select array_agg(version::text order by version) from b) as versions,
        exists (select 1 from c cross join lateral (
          select 1 from products where products.id = c.product_id and ${isOnSale} offset 0) p) as any_on_sale,
        l.product_id::text as changed_id, l.was_posted
      from (select 1) as one left join l on true`,
  )
  const versions = rows[0]?.versions
  if (!versions?.length) return undefined
  return { versions, anyOnSale: rows[0]?.any_on_sale === true, rows }
}

/**
 * Brings the view up to the database's version (at least `target`, when given) by applying the feed, one
 * application at a time; reads the copy whole when the feed cannot say, or when changes piled up (then in the
 * background: the view applied so far goes on answering). With `waitForWholeRead` false (a request), a view too far
 * behind for the feed gives undefined at once instead of waiting for the whole read (the request asks SQL).
 */
export async function catchUp(
  db: Db,
  target?: string,
  waitForWholeRead = true,
): Promise<FactsView | undefined> {
  const s = stateOf(db)
  for (let round = 0; round < 3; round++) {
    // Every waiter looks again once the application it waited for is done: one application at a time, which the
    // next covers every change committed meanwhile (requests that found the view behind share it).
    while (s.applying) await s.applying.catch(() => undefined)
    if (s.farBehind) {
      if (!waitForWholeRead) return undefined
      await s.farBehind
      continue
    }
    const view = s.view
    if (!view) {
      await loadFacts(db)
      return s.view
    }
    if (target !== undefined && !newer(target, view.version)) return view
    s.applying = (async () => {
      const applied = await applyFeed(db, view, s.changes, target !== undefined)
      if (!applied) {
        // Read whole, the view counting as too far behind to answer until the read ends (neither the feed nor the
        // requests wait for it); applications being one at a time, no other such read is under way. A failed read
        // rejects its waiters (the poll, which logs it and backs off).
        const read = loadFacts(db).finally(() => {
          if (s.farBehind === read) s.farBehind = undefined
        })
        read.catch(() => undefined)
        s.farBehind = read
        return s.view
      }
      if (s.view === view) {
        const { view: next, changes } = applied
        if (next.version !== view.version) s.movedAt = Date.now()
        s.view = next
        s.changes = changes
        const reads = partsRead(next, changes)
        const piled = next.parts.slice(0, reads).reduce((n, p) => n + p.deadRows.length, changes.records.size)
        // Also read again once a day: a copy's counts along its price runs hold at the moment it was made, and the
        // listings to correct them by grow with its age (facts-counts.ts, decision 0097).
        const old = Date.now() - baseOf(next).combos.byCombo.at > DAY_MS
        if (old || reads > MOST_READS || piled > rebaseAt(s, next.size)) readAgain(db, s)
        else if (changes.leftOut) readPart(db, s, changes.leftOut)
      }
      return s.view
    })().finally(() => {
      s.applying = undefined
    })
    const now = await s.applying
    if (s.farBehind) continue
    if (target === undefined || (now && !newer(target, now.version))) return now
  }
  return s.view
}

/**
 * Reads the copy whole in the background (changes piled up, a commit left out, a day old) unless a read is under way;
 * after a failed one, not before a wait that doubles with each failure in a row (up to 30 s), as the poll waits.
 */
function readAgain(db: Db, s: State) {
  if (s.loading || Date.now() < s.readAgainAt) return
  void backOff(s, loadFacts(db))
}

/** A background read ended: a failure, unless `stopped`, is logged and puts the next read off (readAgain). */
function backOff(s: State, read: Promise<unknown>, stopped?: AbortSignal) {
  return read.then(
    () => {
      s.readFailures = 0
    },
    (err) => {
      if (stopped?.aborted) return
      s.readFailures++
      s.readAgainAt = Date.now() + Math.min(30_000, 250 * 2 ** s.readFailures)
      logFailure(s, err)
    },
  )
}

/**
 * Reads the listings the left-out commits changed (a bulk load: a tenth of the listings, say) into a part of their own,
 * on a worker thread when the instance has one, and adds it to the view (addPart): the bulk load is searchable in a
 * read of its own listings, not of every listing (decision 0127).
 */
function readPart(db: Db, s: State, commits: string[]) {
  if (s.loading || s.readingPart || Date.now() < s.readAgainAt) return
  const stopped = stoppedOf(s)
  s.readingPart = backOff(s, addPart(db, s, commits, stopped), stopped).finally(() => {
    s.readingPart = undefined
  })
}

/**
 * A part read of the left-out commits' listings (`commits`) added to the view, once the view is at the part's version
 * or later, between two applications of the feed. Dead in it from the start: the listings the view holds as they are
 * now (`records`: changed by an applied commit since, or with, a left-out one), and those the commits after the part's
 * version up to the view's changed. Nothing is added when a whole read replaced the view meanwhile, nor when more
 * commits were left out since the read began (they may have changed the part's listings too: all are read again,
 * together).
 */
async function addPart(db: Db, s: State, commits: string[], stop: AbortSignal) {
  const started = Date.now()
  const apart = s.kept?.readCopy
  const part = await (apart ? apart(stop, { commits, background: true }) : readFacts(db, commits))
  const read = Date.now()
  const sameLeftOut = () => s.changes.leftOut?.join() === commits.join()
  // The listings changed since the part's version are read between applications of the feed, not inside one (searches
  // wait for an application); the part is then added with nothing awaited, if the view did not move meanwhile, else
  // the changes since are read too. Each round reads only those since the last: read again from the part's version,
  // under 20 writes a second on a slow machine, a part took up to eight rounds.
  const since: Awaited<ReturnType<typeof readChangedSince>> = []
  let readUpTo = part.version
  for (let round = 0; ; round++) {
    while (s.applying) await s.applying.catch(() => undefined)
    // Stopped, or a whole read landed meanwhile (it holds the commits' listings), or more commits were left out.
    if (stop.aborted || !s.view || !sameLeftOut()) return
    if (round === 8) throw new Error(`The copy could not catch up to a bulk load's part (${part.version})`)
    const view = s.view
    if (newer(part.version, view.version)) {
      await catchUp(db, part.version)
      continue
    }
    if (newer(view.version, readUpTo)) {
      for (const changed of await readChangedSince(db, readUpTo, view.version)) since.push(changed)
      readUpTo = view.version
    }
    if (s.applying || s.view !== view || stop.aborted || !sameLeftOut()) continue
    // A part with no listing on sale brings the commits in as it is, with no part.
    if (part.size !== 0) {
      const dead = new Set<number>()
      const find = (id: string, us: string | null) => {
        const r = us === null ? -1 : rowOf(part, id, Number(us))
        if (r >= 0) dead.add(r)
      }
      for (const [id, row] of s.changes.records) find(id, row.posted)
      for (const { id, posted } of since) for (const us of posted) find(id, us)
      // Built before its listings stop being left out: a part that cannot be built (its shared memory refused) is
      // read again by readPart, and SQL answers for its listings meanwhile.
      const parts = view.parts.toSpliced(partsRead(view, s.changes), 0, markedPart(part, dead))
      s.view = { ...view, parts, size: view.size + part.size - dead.size }
      s.movedAt = Date.now()
      s.kept?.log.info?.(
        {
          listings: part.size,
          commits: commits.length,
          read_ms: read - started,
          added_ms: Date.now() - read,
          rounds: round + 1,
        },
        'Search read a bulk load apart',
      )
    }
    s.changes = { ...s.changes, leftOut: undefined }
    return
  }
}

/**
 * The listings that commits after `from` up to `upTo` changed, each with every posting time it had since `from`
 * (listing_changes notes the time before a change) and the one it has now: a part read at `from` holds each at one of
 * them.
 */
function readChangedSince(db: Db, from: string, upTo: string) {
  return rowsOf<{ id: string; posted: (string | null)[] }>(
    db,
    // The posting time now looked up per listing: joined to `products`, the planner (which expects a bulk commit's
    // changes of every commit, a million rows) hashed every listing, 500 ms at 1,000,000 while the view waited.
    sql`with c as ${changesOf(sql`version > ${from} and version <= ${upTo}`)}
      select c.product_id::text as id, ${POSTED_BEFORE}
          || (select ${sql.raw(postedUs('products.posted_on'))} from products where products.id = c.product_id) as posted
      from c group by c.product_id`,
  )
}

const BEHIND = 'Search could not bring its copy of the listings up to date; trying again'
const READ_HERE = 'Search could not read its copy of the listings on a worker thread; reading it here'

function logFailure(s: State, err: unknown, message = BEHIND) {
  // A read stopped because the instance stops is no failure.
  if (err instanceof StoppedError) return
  const log = s.kept?.log
  if (log) log.error({ err }, message)
  else console.error(`${message}:`, err)
}

/** The view when it is at `version` (the version row as a request's statement read it); else undefined, and it catches up in the background. */
export function currentFacts(db: Db, version: string | undefined): FactsView | undefined {
  const s = stateOf(db)
  const view = s.view
  if (view && version !== undefined && view.version === version) return view
  // Read whole meanwhile: the poll catches up after it (and alone logs a failed read), not every request. A commit
  // left to the read: a page SQL chose holds listings the view does not, so its counts are SQL's too.
  if (s.farBehind || s.changes.leftOut) return undefined
  if (!view || version === undefined || newer(version, view.version))
    void catchUp(db, version).catch((err) => logFailure(s, err))
  return undefined
}

/**
 * Runs `search` at once when the copy can answer; while it is read whole, once SQL is free of the searches before it or
 * the read has ended (then the copy answers), whichever comes first: sixteen searches asking SQL at once kept both
 * cores busy, and the whole read, needing the same cores and database, took 18 s instead of 3.5 (decision 0103).
 * A search holds its turn until answered.
 */
export async function searchWhileRead<T>(db: Db, search: () => Promise<T>): Promise<T> {
  const s = stateOf(db)
  // The whole read under way while the view cannot answer: the bulk import's, or the first (only when kept current:
  // an instance that never reads its copy answers by SQL alone).
  const read = s.farBehind ?? (s.kept && !s.view ? s.loading : undefined)
  if (!read) return search()
  // Turns in order: each waits for the one before it; one answered by the copy passes its turn on at once.
  let done = () => {}
  const mine = new Promise<void>((resolve) => {
    done = resolve
  })
  const turn = s.sqlTurn
  s.sqlTurn = turn.then(() => mine)
  if (await Promise.race([turn.then(() => false), read.catch(() => undefined).then(() => true)])) done()
  try {
    return await search()
  } finally {
    done()
  }
}

/**
 * What this instance holds (for /api/health): the version every change up to which its view holds (before a commit
 * left to a whole read, while one is), its listings, the last whole read's time.
 */
export function factsStatus(db: Db): { version: string; listings: number; load_ms: number } | null {
  const s = stateOf(db)
  if (!s.view) return null
  const firstLeftOut = s.changes.leftOut?.[0]
  const version = firstLeftOut ? String(BigInt(firstLeftOut) - 1n) : s.view.version
  return { version, listings: s.view.size, load_ms: s.loadMs }
}

/** False while an instance kept current (keepListingsCurrent) has not read its copy yet, or warms up on it. */
export function searchReady(db: Db): boolean {
  const s = stateOf(db)
  return !s.kept || (s.view !== undefined && !s.warming)
}

/**
 * Keeps searchReady false until `work` has run on the first view (read now, if none is yet), then for as long as it
 * runs. A failure of the read is the poll's to log: the instance is ready once a view lands.
 */
export function holdReady(db: Db, work: (view: FactsView) => Promise<void>): Promise<void> {
  const s = stateOf(db)
  const warming = (async () => {
    for (;;) {
      const view = s.view ?? (await catchUp(db).catch(() => undefined))
      if (view) return work(view)
      // Stopped before any view: nothing to hold.
      if (!s.kept) return
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    }
  })().finally(() => {
    if (s.warming === warming) s.warming = undefined
  })
  s.warming = warming
  return warming
}

/** Why a whole read apart ended early: the instance keeping the copy current stopped. */
class StoppedError extends Error {
  override name = 'StoppedError'
}

/**
 * Reads the copy now, then applies the feed as each change commits (notified on the channel, when `listen` is given)
 * and every `pollMs`, or once a second while notified (listenFor's pace). A failure is logged and tried again, a little
 * later each time. `applyFloor`: applyAtMost's floor.
 */
export function keepListingsCurrent(
  db: Db,
  log: Logger,
  pollMs = 25,
  listen?: Database['listen'],
  readCopy?: ReadCopy,
  applyFloor = APPLY_FLOOR,
): { stop: () => void } {
  const s = stateOf(db)
  const stopping = new AbortController()
  const stopped = () => stopping.signal.aborted
  let timer: NodeJS.Timeout | undefined
  let failures = 0
  // The channel the version's trigger notifies at each commit, with the new version (migration 0034).
  const notifications =
    listen &&
    listenFor(
      listen,
      'listing_changes',
      (version) => {
        if (stopped() || s.farBehind || !/^\d+$/.test(version) || !s.view || !newer(version, s.view.version))
          return
        void catchUp(db, version).catch((err) => logFailure(s, err))
      },
      (err, lost) =>
        log.error(
          { err },
          lost
            ? 'Search lost its notifications of listing changes; listening again (polling meanwhile)'
            : 'Search could not listen for listing changes; polling only',
        ),
    )
  // Not called once stopped: the next is set only while running, and stop clears it.
  const tick = async () => {
    try {
      await catchUp(db)
      failures = 0
    } catch (err) {
      if (!stopped()) log.error({ err, failures: ++failures }, BEHIND)
    }
    const every = notifications?.pace(pollMs) ?? pollMs
    if (!stopped()) timer = setTimeout(tick, failures ? Math.min(30_000, pollMs * 2 ** failures) : every)
  }
  const stop = () => {
    if (timer) clearTimeout(timer)
    notifications?.stop()
    stopping.abort(new StoppedError('Search stopped keeping its copy of the listings current'))
    s.kept = undefined
  }
  s.kept = { log, stopped: stopping.signal, readCopy, applyFloor }
  void tick()
  return { stop }
}

/** What the view is asked (facets: whether the answer gives them, counted beside the page), and how rows are read. */
type FromFacts<R> = Omit<PoolAsk, 'nowMs' | 'facets'> & { facets?: boolean; read: (ids: SQL) => Promise<R[]> }

/**
 * A page of listings newest first, by price or by best match: from the view when it can answer, else `bySql`. The
 * ids are chosen in memory (`viewPage`), then `read` for their rows; those rows carry the version row as their
 * statement read it. When that version is newer than the view's (a change committed since it was applied), the view
 * catches up by applying the feed and the page is chosen again, so no page misses a committed change. `fromFacts`
 * undefined: SQL only. With the rows, the view they were chosen from (its counts are the page's), if any.
 */
export async function readListingPage<R extends { id: string; countsVersion: string }>(
  db: Db,
  fromFacts: FromFacts<R> | undefined,
  bySql: () => Promise<R[]>,
): Promise<{ rows: R[]; view?: FactsView; counted?: ViewAnswer }> {
  const fromView = fromFacts ? await pageByView(db, fromFacts) : undefined
  if (fromView) return fromView
  const rows = await bySql()
  return { rows, view: currentFacts(db, rows[0]?.countsVersion) }
}

/**
 * How long after a change last moved the view a search reads the database's version before it chooses its page: under
 * writes that read costs less than the second choice it saves; on a quiet copy it is not made.
 */
const WRITES_LATELY_MS = 1_000

/**
 * The database's version as read by a statement sent at `since` (performance.now()) or later: every change committed
 * before then is in it. One read at a time is shared by the searches that came before it was sent; a search coming
 * while one is under way waits for the next, sent as that one ends. Under writes every search asks (pageByView): one
 * statement for the searches of a round trip, not one each. docs/decisions/0138-*.
 */
function versionSince(db: Db, s: State, since: number): Promise<string> {
  const under = s.versionRead
  if (!under) return sendVersionRead(db, s)
  if (under.sentAt >= since) return under.version
  // The next is sent as the one under way ends, or once that has taken VERSION_READ_WAIT_MS: a read that never
  // answers (a connection gone quiet) holds up the searches that share it, not every later one.
  s.nextVersionRead ??= new Promise<void>((resolve) => {
    const late = setTimeout(resolve, VERSION_READ_WAIT_MS - (performance.now() - under.sentAt))
    const ended = () => {
      clearTimeout(late)
      resolve()
    }
    under.version.then(ended, ended)
  }).then(() => sendVersionRead(db, s))
  return s.nextVersionRead
}

/** How long the searches waiting for the next read of the version wait for the one under way to end. */
const VERSION_READ_WAIT_MS = 1_000

function sendVersionRead(db: Db, s: State): Promise<string> {
  s.nextVersionRead = undefined
  const read = { sentAt: performance.now(), version: readVersion(db) }
  s.versionRead = read
  const done = () => {
    if (s.versionRead === read) s.versionRead = undefined
  }
  read.version.then(done, done)
  return read.version
}

async function pageByView<R extends { id: string; countsVersion: string }>(
  db: Db,
  { read, facets = false, ...ask }: FromFacts<R>,
): Promise<{ rows: R[]; view: FactsView; counted: ViewAnswer } | undefined> {
  const asked = performance.now()
  const s = stateOf(db)
  // Too far behind for the feed: SQL answers while the copy is read whole (seconds), rather than the request wait.
  if (s.farBehind) return undefined
  // A change this instance has heard of is being applied: the page is chosen from the view it makes, not read from
  // the one behind it and then chosen and read again.
  if (s.applying) await s.applying.catch(() => undefined)
  if (s.farBehind) return undefined
  let view = s.view
  if (!view) {
    void catchUp(db).catch((err) => logFailure(s, err))
    return undefined
  }
  // Under writes (most searches, at 20 writes a second) the version is read first, not with the rows (readListingPage),
  // and the view caught up to it before the page is chosen, once; the rows, read after, may be newer (changes committed
  // during the request).
  let caughtUp = false
  if (Date.now() - s.movedAt < WRITES_LATELY_MS) {
    const now = await versionSince(db, s, asked)
    if (newer(now, view.version)) view = await catchUp(db, now, false)
    caughtUp = true
  }
  let kept: Map<string, R> | undefined
  for (let attempt = 0; attempt < 3 && view; attempt++) {
    // The page, and the counts the answer needs, chosen in one go (on a search thread when the instance has them).
    const counted = await askView(db, view, { ...ask, nowMs: Date.now(), facets })
    const ids = counted.ids
    if (!ids) return undefined
    const missing = kept ? ids.filter((id) => !kept?.has(id)) : ids
    // No match: the version alone says whether the view is current.
    const fresh = missing.length
      ? await read(sql`select unnest(${`{${missing.join(',')}}`}::uuid[])`)
      : ([] as R[])
    const byId = new Map(kept)
    for (const row of fresh) byId.set(row.id, row)
    const rows = ids.flatMap((id) => byId.get(id) ?? [])
    const version =
      fresh[0]?.countsVersion ?? (kept && missing.length === 0 ? view.version : await readVersion(db))
    const complete = rows.length === ids.length
    if (complete && (caughtUp || !newer(version, view.version))) return { rows, view, counted }
    // A listing missing at the view's own version: its copy cannot say (SQL answers).
    if (!newer(version, view.version)) return undefined
    view = await catchUp(db, version, false)
    caughtUp = true
    // The rows just read are the listings as of `version`: still right when the view caught up to exactly that.
    kept = view?.version === version ? byId : undefined
  }
  return undefined
}
