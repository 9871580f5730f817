import { type SQL, sql } from 'drizzle-orm'
import { type Database, type Db, pastTheTurns } from '#server/db/client'
import { listenFor } from '#server/db/listening'
import { collectLetGo } from '#server/lib/let-go'
import { isOnSale } from '#server/lib/on-sale'
import { rowsOf } from '#server/lib/paging'
import { LISTING_VERSIONS, type Versions } from '#server/modules/products'
import { mergeInOrder } from './facts-pages'
import { type Rebase, rebaseCopy } from './facts-rebase'
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
import { baseOf, type FactsView, type MarkedPart, markedPart, partWithDead, wholeView } from './listing-view'
import { askView, type PoolAsk, type ViewAnswer } from './search-pool'

// Each instance's copy of the listings (listing-facts.ts), kept current from the change feed
// (migration 0027): a new view is the base less changed rows plus a small copy of them now; piled-up changes
// bring a whole copy made again from the view, in the background (decision 0162). A commit too large to apply (a
// bulk load) is read into a part of its own (decision 0127). docs/decisions/0037-listing-change-feed.md.

export type Logger = { error: (obj: object, msg: string) => void; info?: (obj: object, msg: string) => void }

type State = {
  view?: FactsView
  changes: Changes
  /** One application of the feed at a time. */
  applying?: Promise<FactsView | undefined>
  /** One whole read at a time (a copy made from the view: `fromView`). */
  loading?: Promise<ListingFacts>
  fromView?: boolean
  /** When the copy was last read whole from the database (Date.now() at the read's start). */
  readAt: number
  loadMs: number
  /** Set by keepListingsCurrent (not ready before its first view); `stopped` aborts its reads apart. */
  kept?: { log: Logger; stopped: AbortSignal; readCopy?: ReadCopy; applyFloor: number }
  readingPart?: Promise<void>
  /** Whether the view's base was read apart: then a rebase costs the requests nothing (rebaseAt). */
  readApart?: boolean
  /** Whole read under way as the feed can't bring the view up (applyFeed): SQL answers meanwhile. */
  farBehind?: Promise<ListingFacts>
  /** Settles when the searches that asked SQL during a whole read are answered (searchWhileRead). */
  sqlTurn: Promise<void>
  /** Background whole reads failed in a row (readAgain), and when the next may start. */
  readFailures: number
  readAgainAt: number
  /** When a change last moved the view (Date.now()). */
  movedAt: number
  /** Version read under way, shared by searches under writes; the next, sent as it ends (versionSince). */
  versionRead?: { sentAt: number; versions: Promise<Versions> }
  nextVersionRead?: Promise<Versions>
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
   * Per part settled from the feed (after partsRead's), each listing's posting time, to find its row: level 0
   * every listing changed since the base, each next level those since the one before, as when it was made.
   */
  settled: Map<string, number>[]
  /** Too-large commits (readBulk), in order: their listings missing until readPart or a whole read. */
  leftOut?: string[]
}

const noChanges = (): Changes => ({ records: new Map(), recent: new Set(), settled: [] })

/** Count of the view's first parts read from the database (the base, then each bulk load read apart). */
const partsRead = (view: FactsView, changes: Changes) => view.parts.length - changes.settled.length

/** More parts read apart than this (the base and two bulk loads): the copy is made whole again, into one. */
const MOST_READS = 3

/**
 * Past DELTA_AT_MOST the delta settles into levels: level k (≤ SETTLED_AT_MOST[k] listings) is remade every
 * ~SETTLED_AT_MOST[k + 1] changes, the whole pile (15 µs a listing, main thread) every ~8,192. Decision 0132.
 */
const DELTA_AT_MOST = 16
const SETTLED_AT_MOST = [Number.POSITIVE_INFINITY, 8_192, 1_024, 128]

/**
 * Worker read of the copy, or of `commits`' listings; `background`: yields to searches (facts-worker.ts); `inTurn`:
 * a read again (readAgain: the day, left-out bulk loads, a failure), which no request waits on, after any other
 * instance's (decision 0161);
 * `rebase`: the copy made again from a view in memory, no read (readAgain for the pile: decision 0162).
 */
export type ReadCopy = (signal: AbortSignal, read: CopyRead) => Promise<ListingFacts>
export type CopyRead = { commits?: string[]; background: boolean; inTurn?: boolean; rebase?: Rebase }

/** Per database (tests open many in one process). */
const stateOf = onceEach(
  (_: Db): State => ({
    changes: noChanges(),
    loadMs: 0,
    sqlTurn: Promise.resolve(),
    readFailures: 0,
    readAgainAt: 0,
    movedAt: 0,
    readAt: 0,
  }),
)

const newer = (a: string, b: string) => BigInt(a) > BigInt(b)

/** Aborts when the instance keeping the copy current stops (never, when none does). */
const stoppedOf = (s: State) => s.kept?.stopped ?? new AbortController().signal

/**
 * Piled changes that bring a whole copy (made on its own thread, readCopy). Every search counts the pile (cost ∝ its
 * size) and a copy costs ∝ the listings, so the two are least in sum at a pile ∝ √listings: √(20 × listings), at least
 * 2,000 (4,203 at 883,202 on sale: a copy every 210 s at 20 changes a second; decision 0148). Tuned for a whole read;
 * a copy made from the view costs a fifth, but a bound of 2,000 measured no better (decision 0162).
 */
export const pileForWholeRead = (listings: number) => Math.max(2_000, Math.round(Math.sqrt(20 * listings)))

/** A copy made on this thread (no readCopy) is made again only when one application cannot take the pile. */
const rebaseAt = (s: State, size: number) => (s.readApart ? pileForWholeRead(size) : applyAtMost(s, size))

/** Fewest changes one application takes, whatever the copy's size, before some are left to a read. */
const APPLY_FLOOR = 5_000

/** Most changes one application takes (a bulk import: big commits left to a read); tests lower applyFloor. */
const applyAtMost = (s: State, size: number) =>
  Math.min(50_000, Math.max(s.kept?.applyFloor ?? APPLY_FLOOR, Math.floor(size / 10)))

/**
 * Reads the copy whole now (first load, tests, far behind, once a day); searches go on meanwhile. `inTurn`:
 * readAgain's, after any other instance's (ReadCopy); a caller finding a read under way shares it, turn and all.
 * `rebase`: made from the view in memory instead (rebaseOf, readAgain for the pile), on the reading thread when there
 * is one. A read shares no copy made from the view: that is at the view's version, which a read far behind is past.
 */
export function loadFacts(db: Db, inTurn = false, rebase?: Rebase): Promise<ListingFacts> {
  const s = stateOf(db)
  if (s.loading && !(s.fromView && !rebase)) return s.loading
  const started = Date.now()
  const stopped = stoppedOf(s)
  const loading: Promise<ListingFacts> = (async () => {
    const apart = s.kept?.readCopy
    let readApart = apart !== undefined
    const background = s.view !== undefined
    const base = await (apart
      ? apart(stopped, { background, inTurn, rebase }).catch((err) => {
          // Stopped with the instance, or a read again while a view answers: that read on this thread would stall
          // every request for the seconds of building the copy (readAgain backs off and reads apart again).
          if (stopped.aborted || background) throw err
          logFailure(s, err, READ_HERE)
          readApart = false
          return readFacts(db)
        })
      : rebase
        ? rebaseCopy(rebase)
        : readFacts(db))
    let next = { view: wholeView(base), changes: noChanges() }
    // Changes made during the read applied before it replaces the view (chasing the old view a few rounds).
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
      if (!rebase) s.readAt = started
      // The copy before, and what reading or making this one left, go once collected (the search threads' handles
      // go as they drop it: search-pool.ts).
      collectLetGo()
    }
    s.loadMs = Date.now() - started
    s.kept?.log.info?.(
      { listings: base.size, ms: s.loadMs, apart: readApart, from_view: rebase !== undefined },
      rebase
        ? 'Search made its copy of the listings again from its view'
        : 'Search read its copy of the listings whole',
    )
    return base
  })().finally(() => {
    if (s.loading !== loading) return
    s.loading = undefined
    s.fromView = false
  })
  s.loading = loading
  s.fromView = rebase !== undefined
  return loading
}

/** The feed applied as a new view (the old left to its readers); undefined: it cannot say, read whole. */
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
    // Too many: bulk commits left to a read, the rest applied, so other changes show at once. Decision 0111.
    const bulk = await readBulk(db, view.version, head.feed_version, limit)
    if (!bulk) return undefined
    // Up to the version read first: a commit since (a second bulk import) is the next application's to look at.
    rows = await readChanges(db, view.version, limit, bulk.versions, head.feed_version)
    head = rows[0]
    if (!head || pruned(head) || Number(head.changed) > limit) return undefined
    // Each listing of theirs the view may hold leaves it now, as if off sale (marks alone: nothing built);
    // those on sale come back with the whole read, or as they are now if changed again before it.
    bulkRows = bulk.rows.map((r) => ({ ...r, on_sale: false }))
    // Left for the read: the commits' listings on sale now (a bulk import's new ones), unless there are none.
    if (bulk.anyOnSale) changes = { ...changes, leftOut: [...(changes.leftOut ?? []), ...bulk.versions] }
  }
  const version = head.feed_version
  // The left-out commits' listings first, then the rest (as they are now).
  const changed = [...bulkRows, ...rows].filter((r) => r.changed_id !== null)
  if (changed.length === 0) return { view: { ...view, version }, changes }
  // Changed in place, not copied (a copy per application cost as much as the pile, 20,000 listings at
  // 1,000,000): only this application's view uses them; the view before never reads them.
  const { records } = changes
  let recent = new Set(changes.recent)
  // Marked at this application's number: views before it (in use) skip them, it and later ones count them
  // (DeadMarks); sound as applications go one at a time, a view dropped only for a whole read or failure.
  const marks = view.parts.map((part) => ({ part, upTo: part.dead.upTo + 1, rows: new Set<number>() }))
  const mark = (i: number, r: number) => {
    const m = marks[i]
    if (!m || r < 0) return
    // Marked by this view or one before: already dead for it. A mark past the view's own number is from an
    // application that failed before making a view (none other can be larger): written over.
    const at = m.part.dead.at[r] as number
    if (at !== 0 && at <= m.part.dead.upTo) return
    Atomics.store(m.part.dead.at, r, m.upTo)
    m.rows.add(r)
  }
  const reads = partsRead(view, changes)
  for (const row of changed) {
    const id = row.changed_id as string
    // Parts read hold a listing at the posting time it had then: one it had since, or has now.
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
  let parts: MarkedPart[] = marks.map(({ part, upTo, rows }) =>
    partWithDead(
      part.facts,
      part.dead.at,
      upTo,
      // The rows marked now merged in (one pass, not a sort of them all again).
      rows.size > 0 ? mergeInOrder([part.deadRows, Int32Array.from(rows).sort()]) : part.deadRows,
    ),
  )
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

/** Where `recent` settles: the deepest level fitting it and those after (a new one if room), with its ids. */
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
 * The `where` commits' changes (listing, old posting time, whether created). `offset 0`: a lookup per commit,
 * as a bulk import skews `tx`'s stats: the planner hashed the feed (12 ms a commit at 100,000 listings).
 */
const changesOf = (where: SQL) => sql`(select c.product_id, c.posted_on, c.created
  from (select tx from listing_change_commits where ${where}) k cross join lateral (
    select product_id, posted_on, created from listing_changes c where c.tx = k.tx offset 0) c)`

/** Per listing changed, the posting times it had before its changes (as FactRow holds them). */
const POSTED_BEFORE = sql.raw(`array_agg(distinct ${postedUs('c.posted_on')})`)

/**
 * One statement: the version (at most `upTo`), the changes since `version` up to it but `skip`, and each listing
 * changed as it is now (none when only brands moved the version) with its earlier posting times. Past `limit`,
 * only the count.
 */
function readChanges(db: Db, version: string, limit: number, skip: string[] = [], upTo?: string) {
  return rowsOf<ChangeRow>(
    db,
    sql`with v as (select least(version, ${upTo ?? null}::bigint) as version from listing_counts_version where id),
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
 * Commits from `version` to `upTo` over a quarter of `limit` changes (a bulk import); the listings they
 * changed that a view may hold (not ones they created), with their posting times; whether any is on sale now.
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
 * Applies the feed, one application at a time, up to the database's version (at least `target`); reads whole
 * when it cannot or changes piled up. `waitForWholeRead` false (a request): undefined at once if far behind.
 */
export async function catchUp(
  db: Db,
  target?: string,
  waitForWholeRead = true,
): Promise<FactsView | undefined> {
  const s = stateOf(db)
  for (let round = 0; round < 3; round++) {
    // One application at a time, covering every change committed meanwhile: waiters look again after it.
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
      // Past the statements waiting their turn: searches under writes wait on it (decision 0159).
      const applied = await pastTheTurns(() => applyFeed(db, view, s.changes, target !== undefined))
      if (!applied) {
        // Far behind until the read ends (neither feed nor requests wait for it); applications being one at a
        // time, no other such read runs. A failed read rejects its waiters (the poll logs it, backs off).
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
        // Also made again daily: a copy's counts along its price runs hold as of its making, and the listings to
        // correct them by grow with its age (facts-counts.ts, decision 0097); and read from the database a day after
        // the last read, so a copy made from views is taken afresh (decision 0162).
        const daily = Date.now() - s.readAt > DAY_MS
        const old = daily || Date.now() - baseOf(next).combos.byCombo.at > DAY_MS
        if (old || reads > MOST_READS || piled > rebaseAt(s, next.size)) readAgain(db, s, daily)
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
 * Makes the copy whole again in the background unless a read is under way or failures put it off (backOff, up to
 * 30 s): from the view in memory (decision 0162), or read in turn (decision 0161) a day after the last read
 * (`daily`), while a bulk load's listings are left out of the view (it has them nowhere), and after a failure.
 */
function readAgain(db: Db, s: State, daily: boolean) {
  if (s.loading || Date.now() < s.readAgainAt) return
  const rebase = daily || s.changes.leftOut || s.readFailures > 0 ? undefined : rebaseOf(db)
  void backOff(s, loadFacts(db, rebase === undefined, rebase))
}

/** What the view's copy is made again from in memory: its parts read from the database, and the listings changed since. */
export function rebaseOf(db: Db): Rebase | undefined {
  const { view, changes } = stateOf(db)
  if (!view) return undefined
  return {
    version: view.version,
    parts: view.parts.slice(0, partsRead(view, changes)).map(({ facts, deadRows }) => ({ facts, deadRows })),
    records: [...changes.records.values()],
  }
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

/** Reads the left-out commits' listings alone into a part of their own (addPart; decision 0127). */
function readPart(db: Db, s: State, commits: string[]) {
  if (s.loading || s.readingPart || Date.now() < s.readAgainAt) return
  const stopped = stoppedOf(s)
  s.readingPart = backOff(s, addPart(db, s, commits, stopped), stopped).finally(() => {
    s.readingPart = undefined
  })
}

/**
 * Adds the part once the view reaches its version, between applications; dead in it: `records`' listings and
 * those changed since. Not if a whole read replaced the view, or more were left out since (all read again).
 */
async function addPart(db: Db, s: State, commits: string[], stop: AbortSignal) {
  const started = Date.now()
  const apart = s.kept?.readCopy
  const part = await (apart ? apart(stop, { commits, background: true }) : readFacts(db, commits))
  const read = Date.now()
  const sameLeftOut = () => s.changes.leftOut?.join() === commits.join()
  // Changes since the part's version are read between applications (searches wait on those), each round only
  // since the last: reading from its version, at 20 writes/s on a slow machine, took up to eight rounds.
  const since: Awaited<ReturnType<typeof readChangedSince>> = []
  let readUpTo = part.version
  for (let round = 0; ; round++) {
    while (s.applying) await s.applying.catch(() => undefined)
    // Stopped, a whole read landed (it holds the commits' listings), or more commits were left out.
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
      // Built before its listings stop being left out: if shared memory is refused, readPart retries.
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

/** Listings changed in (`from`, `upTo`], with each posting time since `from` (a part read then has one). */
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
  if (err instanceof StoppedError) return
  const log = s.kept?.log
  if (log) log.error({ err }, message)
  else console.error(`${message}:`, err)
}

/** The view if at `version` (the version row a request's statement read); else undefined, catching up. */
export function currentFacts(db: Db, version: string | undefined): FactsView | undefined {
  const s = stateOf(db)
  const view = s.view
  if (view && version !== undefined && view.version === version) return view
  // Read whole meanwhile: the poll catches up after (and alone logs a failed read), not every request. A
  // commit left to a read: a page SQL chose holds listings the view does not, so SQL's counts too.
  if (s.farBehind || s.changes.leftOut) return undefined
  if (!view || version === undefined || newer(version, view.version))
    void catchUp(db, version).catch((err) => logFailure(s, err))
  return undefined
}

/**
 * Runs `search` now if the copy can answer; in a whole read, once earlier searches are done with SQL or the
 * read ends: sixteen on SQL at once kept both cores busy, the read taking 18 s, not 3.5 (decision 0103).
 */
export async function searchWhileRead<T>(db: Db, search: () => Promise<T>): Promise<T> {
  const s = stateOf(db)
  // The whole read the view waits for: the bulk import's, or the first when kept current (else SQL only).
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

/** For /api/health; `version`: every change up to it is in the view (before any left-out commit). */
export function factsStatus(db: Db): { version: string; listings: number; load_ms: number } | null {
  const s = stateOf(db)
  if (!s.view) return null
  const firstLeftOut = s.changes.leftOut?.[0]
  const version = firstLeftOut ? String(BigInt(firstLeftOut) - 1n) : s.view.version
  return { version, listings: s.view.size, load_ms: s.loadMs }
}

/** False while an instance kept current has not read its copy yet, or warms up on it. */
export function searchReady(db: Db): boolean {
  const s = stateOf(db)
  return !s.kept || (s.view !== undefined && !s.warming)
}

/** searchReady stays false until `work` ran on the first view and while it runs; the poll logs failures. */
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

/** Reads the copy, then applies the feed on each notified commit and every `pollMs`; failures back it off. */
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

/** The ask of the view (facets: whether counted beside the page) and how its rows are read. */
type FromFacts<R> = Omit<PoolAsk, 'nowMs' | 'facets'> & { facets?: boolean; read: (ids: SQL) => Promise<R[]> }

/**
 * A page from the view if it can answer, else `bySql`: ids chosen in memory, then `read`; rows newer than the
 * view (their version row) make it catch up and choose again, so no page misses a committed change.
 */
export async function readListingPage<R extends { id: string; countsVersion: string }>(
  db: Db,
  fromFacts: FromFacts<R> | undefined,
  bySql: () => Promise<R[]>,
): Promise<{ rows: R[]; view?: FactsView; counted?: ViewAnswer; versions?: Versions }> {
  const fromView = fromFacts ? await pageByView(db, fromFacts) : undefined
  if (fromView) return fromView
  const rows = await bySql()
  return { rows, view: currentFacts(db, rows[0]?.countsVersion) }
}

/**
 * `version` moves on at every change the feed notes (a listing's facts), `terms_version` at every change to the
 * titles' vocabulary, `brands_version` at every change to the brands. The three in one statement: a search whose page
 * has no rows needs them all.
 */
export async function readVersions(db: Db): Promise<Versions> {
  const [row] = await rowsOf<Versions>(db, sql`select ${LISTING_VERSIONS}`)
  return row ?? { countsVersion: '0', termsVersion: '0', brandsVersion: '0' }
}

/** The copy's version alone (the feed's poll, tests). */
export const readVersion = async (db: Db) => (await readVersions(db)).countsVersion

/** After a move this recent, a search reads the version first: cheaper under writes than a second choice. */
const WRITES_LATELY_MS = 1_000

/**
 * The versions as read by a statement sent at `since` (performance.now()) or later: every change committed
 * before then is in them. One read at a time, shared by the searches before it was sent; later ones wait for
 * the next: under writes, one statement per round trip, not per search. docs/decisions/0138-*.
 */
function versionSince(db: Db, s: State, since: number): Promise<Versions> {
  const under = s.versionRead
  if (!under) return sendVersionRead(db, s)
  if (under.sentAt >= since) return under.versions
  // A read that never answers (a connection gone quiet) holds up only the searches sharing it.
  s.nextVersionRead ??= new Promise<void>((resolve) => {
    const late = setTimeout(resolve, VERSION_READ_WAIT_MS - (performance.now() - under.sentAt))
    const ended = () => {
      clearTimeout(late)
      resolve()
    }
    under.versions.then(ended, ended)
  }).then(() => sendVersionRead(db, s))
  return s.nextVersionRead
}

/** How long the searches waiting for the next read of the version wait for the one under way to end. */
const VERSION_READ_WAIT_MS = 1_000

function sendVersionRead(db: Db, s: State): Promise<Versions> {
  s.nextVersionRead = undefined
  // Past the statements waiting their turn: each search waits on it before sending its page's (decision 0159).
  const read = { sentAt: performance.now(), versions: pastTheTurns(() => readVersions(db)) }
  s.versionRead = read
  const done = () => {
    if (s.versionRead === read) s.versionRead = undefined
  }
  read.versions.then(done, done)
  return read.versions
}

async function pageByView<R extends { id: string; countsVersion: string }>(
  db: Db,
  { read, facets = false, ...ask }: FromFacts<R>,
): Promise<{ rows: R[]; view: FactsView; counted: ViewAnswer; versions?: Versions } | undefined> {
  const asked = performance.now()
  const s = stateOf(db)
  // Too far behind for the feed: SQL answers while the copy is read whole (seconds); requests don't wait.
  if (s.farBehind) return undefined
  // A change heard of is being applied: the page is chosen from the view it makes, not chosen twice.
  if (s.applying) await s.applying.catch(() => undefined)
  if (s.farBehind) return undefined
  let view = s.view
  if (!view) {
    void catchUp(db).catch((err) => logFailure(s, err))
    return undefined
  }
  // Under writes (most searches, at 20 writes a second) the version is read first, not with the rows, and the
  // view caught up to it once before choosing; the rows, read after, may be newer (changes mid-request).
  let caughtUp = false
  let readFirst: Versions | undefined
  if (Date.now() - s.movedAt < WRITES_LATELY_MS) {
    readFirst = await versionSince(db, s, asked)
    if (newer(readFirst.countsVersion, view.version)) view = await catchUp(db, readFirst.countsVersion, false)
    caughtUp = true
  }
  let kept: Map<string, R> | undefined
  for (let attempt = 0; attempt < 3 && view; attempt++) {
    // The page and the counts the answer needs, chosen in one go (on a search thread, if any).
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
    // No row read: rows kept from the last attempt are at the view's version. Else the versions read first (no
    // match) or now, the three in one statement: a page without rows takes them from here (readListingPage).
    const alone =
      fresh.length > 0 || (kept && missing.length === 0)
        ? undefined
        : ids.length === 0 && readFirst
          ? readFirst
          : await readVersions(db)
    const version = fresh[0]?.countsVersion ?? alone?.countsVersion ?? view.version
    const complete = rows.length === ids.length
    if (complete && (caughtUp || !newer(version, view.version)))
      return { rows, view, counted, versions: alone }
    // A listing missing at the view's own version: its copy cannot say (SQL answers).
    if (!newer(version, view.version)) return undefined
    view = await catchUp(db, version, false)
    caughtUp = true
    // The rows just read are as of `version`: still right if the view caught up to exactly that.
    kept = view?.version === version ? byId : undefined
  }
  return undefined
}
