import { type ResourceLimits, Worker } from 'node:worker_threads'
import { TOTAL_THRESHOLD } from '#contract/paging'
import type { Db } from '#server/db/client'
import { collectLetGo } from '#server/lib/let-go'
import { startWithOldGeneration, workerScript } from '#server/lib/worker-script'
import type { FactsFacets } from './facts-counts'
import type { PageAsk } from './facts-pages'
import type { ListingFacts } from './listing-facts'
import { type TextTerms, textMatchesIn } from './listing-text'
import { baseOf, type FactsView, type MarkedPart, viewFacets, viewPage, viewTotal } from './listing-view'
import { type ArrayKind, sharedFrom } from './shared-texts'

// Searches of the copy on worker threads (facts-searcher.ts), to use every core: the main thread reads the
// page's rows while searchers pick pages and count. Copies' arrays are shared (SharedArrayBuffer), not
// copied; a view is posted before its first search. docs/decisions/0080-searches-on-worker-threads.md.

/** A page ask (facts-pages.ts), its words as resolveText made them, and whether with facets. */
export type PoolAsk = Omit<PageAsk, 'text' | 'dead' | 'until'> & {
  terms?: TextTerms | undefined
  facets: boolean
}

/** `ids`: `pageSize` + 1 when more, undefined if the view can't say; `total` if the page does not tell it. */
export type ViewAnswer = { ids?: string[] | undefined; total?: number; facets?: FactsFacets }

/** On a searcher, or on this thread without a pool. */
export function searchView(view: FactsView, ask: PoolAsk): ViewAnswer {
  const { query, sort, paging, cursor, nowMs, terms } = ask
  const textOf = terms ? textMatchesIn(terms) : undefined
  const ids = viewPage(view, { query, sort, paging, cursor, nowMs }, textOf)
  if (!ids) return {}
  if (ask.facets) {
    const facets = viewFacets(view, query, nowMs, textOf)
    return { ids, facets, total: facets.total }
  }
  if (cursor || paging.offset > 0 || ids.length > paging.pageSize)
    return { ids, total: viewTotal(view, query, nowMs, TOTAL_THRESHOLD, textOf) }
  return { ids }
}

export type ToSearcher =
  | { type: 'copy'; id: number; copy: ListingFacts }
  | { type: 'drop-copy'; id: number; collect: boolean }
  | { type: 'view'; id: number; view: PostedView }
  | { type: 'drop-view'; id: number }
  | { type: 'ask'; id: number; viewId: number; ask: PoolAsk }

const tell = (searcher: Searcher, message: ToSearcher) => searcher.worker.postMessage(message)

/** A view as posted to a searcher: its parts' copies by id (each posted once), the rest as it is. */
type PostedView = Omit<FactsView, 'parts'> & { parts: (Omit<MarkedPart, 'facts'> & { copyId: number })[] }

export type PoolAnswer = { id: number; error?: string } & ViewAnswer

type Searcher = {
  worker: Worker
  pending: number
  /** The views posted to it, with how many of its searches in flight read each. */
  views: Map<FactsView, { id: number; pending: number }>
  copies: Map<ListingFacts, number>
}

/** Moves a copy's arrays (it never changes) into shared memory in place, so posting it shares them. */
export function shareCopy<T>(value: T): T {
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof SharedArrayBuffer) return value
    const array = value as unknown as Uint8Array
    return sharedFrom(array.constructor as ArrayKind<Uint8Array>, array) as T
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) record[key] = shareCopy(record[key])
  }
  return value
}

let nextId = 1

/**
 * Per searcher: one it answers and the next, so it never waits for this thread; the rest wait for the first
 * free one (queued per searcher, a 40 ms search held up all behind it as another idled). Decision 0125.
 */
const IN_FLIGHT = 2

type Search = { view: FactsView; ask: PoolAsk; resolve: (a: ViewAnswer) => void; reject: (e: Error) => void }

/**
 * Heap limits of the copy's threads (searchers; the reader: facts-apart.ts). V8 sizes a young generation from
 * machine memory: on 24 GB each searcher kept 128 MB committed holding 20 to 45 MB live, and the reader's
 * heap reached 232 MB at 88,159 listings (101 with these, as fast). 24 MB (two halves of 8 MB) holds a
 * search's garbage between scavenges; the old generation keeps V8's limit: a read must never stop for want of
 * it. Decisions 0092, 0096. `--max-semi-space-size` (scripts/server-runtime.mjs): 8 MB in every thread.
 */
export const THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 24 }

/**
 * Old generation before V8's first full GC (then sized by what it holds, never below), decision 0137. A
 * searcher holds about 25 MB; V8 set its limit near 44 MB, marking at 26 (room for a young generation): under
 * the long tail a full GC about once a second, searches in flight waiting 5 to 50 ms each.
 */
export const SEARCHER_OLD_START_MB = 64

export class SearchPool {
  /** Its searchers (tests read what each holds, its searches in flight, its heap limits). */
  readonly searchers: Searcher[]
  private readonly waiting = new Map<number, Search>()
  /** Searches asked while every searcher had IN_FLIGHT, in the order they came. */
  readonly queued: Search[] = []
  private failed: Error | undefined
  answered = 0

  constructor(
    size: number,
    private readonly onFailure: (err: Error) => void,
  ) {
    const script = workerScript('facts-searcher', import.meta.url)
    const workers = startWithOldGeneration(
      SEARCHER_OLD_START_MB,
      size,
      () => new Worker(script.url, { execArgv: script.execArgv, resourceLimits: THREAD_LIMITS }),
    )
    this.searchers = workers.map((worker) => {
      // The pool never keeps the instance running on its own.
      worker.unref()
      const searcher: Searcher = { worker, pending: 0, views: new Map(), copies: new Map() }
      worker.on('message', (answer: PoolAnswer) => this.settle(searcher, answer))
      worker.on('error', (err) => this.fail(err))
      worker.on('exit', (code) => {
        if (!this.failed) this.fail(new Error(`A searcher of the search pool stopped (exit code ${code})`))
      })
      return searcher
    })
  }

  /**
   * searchView on a searcher: at once on the one with the fewest searches in flight when it has fewer than
   * IN_FLIGHT, else once one has (the searches waiting for it go in the order they came).
   */
  ask(view: FactsView, ask: PoolAsk): Promise<ViewAnswer> {
    if (this.failed) return Promise.reject(this.failed)
    return new Promise((resolve, reject) => {
      let searcher = this.searchers[0] as Searcher
      for (const s of this.searchers) if (s.pending < searcher.pending) searcher = s
      const search = { view, ask, resolve, reject }
      if (searcher.pending < IN_FLIGHT) this.send(searcher, search)
      else this.queued.push(search)
    })
  }

  private send(searcher: Searcher, search: Search) {
    const id = nextId++
    try {
      const posted = this.post(searcher, search.view)
      tell(searcher, { type: 'ask', id, viewId: posted.id, ask: search.ask })
      searcher.pending++
      posted.pending++
      this.waiting.set(id, search)
    } catch (err) {
      // Unpostable (a function, say): refused, not counted in flight (it would stay so); caller answers here.
      search.reject(err as Error)
    }
  }

  /** Stops every searcher; searches in flight fail (their callers answer on this thread). */
  stop() {
    this.fail(new Error('The search pool stopped'))
    for (const s of this.searchers) void s.worker.terminate()
  }

  /** Posts `view` (and its copies) to a searcher that does not hold it; drops the views no search reads any more. */
  private post(searcher: Searcher, view: FactsView): { id: number; pending: number } {
    const known = searcher.views.get(view)
    if (known) return known
    const base = baseOf(view)
    const baseWasNew = !searcher.copies.has(base)
    // Dead rows and delta shared once for every post (parts' marks already are: markedPart).
    for (const part of view.parts) part.deadRows = shareCopy(part.deadRows)
    shareCopy(view.delta)
    const parts = view.parts.map(({ facts, ...marked }) => {
      let copyId = searcher.copies.get(facts)
      if (copyId === undefined) {
        copyId = nextId++
        searcher.copies.set(facts, copyId)
        tell(searcher, { type: 'copy', id: copyId, copy: shareCopy(facts) })
      }
      return { ...marked, copyId }
    })
    const posted = { id: nextId++, pending: 0 }
    tell(searcher, { type: 'view', id: posted.id, view: { ...view, parts } })
    // It keeps the views searches in flight read, and the latest; the rest go, then copies no view reads.
    searcher.views.set(view, posted)
    this.drop(searcher, base, (old) => old !== view)
    // A new copy (a rebase): the others drop the old copy's idle views now, not at their next search.
    if (baseWasNew)
      for (const other of this.searchers)
        if (other !== searcher) this.drop(other, base, (old) => baseOf(old) !== base)
    return posted
  }

  /**
   * Drops a searcher's views that `which` names and no search in flight reads, then the copies no view reads. One the
   * size of the latest `base` or more than half of it (a copy before it) is sure to be collected soon (collectLetGo),
   * here and on the searcher; the small ones (settled parts, every few seconds under writes) with the rest, as a full
   * collection each time took a search's CPU twice over.
   */
  private drop(searcher: Searcher, base: ListingFacts, which: (view: FactsView) => boolean) {
    for (const [old, p] of searcher.views) {
      if (p.pending > 0 || !which(old)) continue
      searcher.views.delete(old)
      tell(searcher, { type: 'drop-view', id: p.id })
    }
    const read = new Set([...searcher.views.keys()].flatMap((v) => v.parts.map((p) => p.facts)))
    let collect = false
    for (const [copy, id] of searcher.copies) {
      if (read.has(copy)) continue
      searcher.copies.delete(copy)
      const large = copy.size * 2 >= base.size
      tell(searcher, { type: 'drop-copy', id, collect: large })
      collect ||= large
    }
    // This thread may have held the copy's last handle: its memory goes once collected here too.
    if (collect) collectLetGo()
  }

  private settle(searcher: Searcher, answer: PoolAnswer) {
    const waiter = this.waiting.get(answer.id)
    if (!waiter) return
    this.waiting.delete(answer.id)
    searcher.pending--
    const posted = searcher.views.get(waiter.view)
    if (posted) posted.pending--
    if (answer.error !== undefined) waiter.reject(new Error(`A searcher failed: ${answer.error}`))
    else {
      this.answered++
      waiter.resolve({ ids: answer.ids, total: answer.total, facets: answer.facets })
    }
    // The searcher that is free first takes the search that has waited longest.
    while (searcher.pending < IN_FLIGHT && this.queued.length > 0 && !this.failed)
      this.send(searcher, this.queued.shift() as Search)
  }

  private fail(err: Error) {
    if (this.failed) return
    this.failed = err
    for (const search of [...this.waiting.values(), ...this.queued.splice(0)]) search.reject(err)
    this.waiting.clear()
    this.onFailure(err)
  }
}

const pools = new WeakMap<Db, SearchPool>()

/** `db`'s copy searched on `threads` workers (0: here); a searcher failing is logged, searches come back. */
export function startSearchPool(
  db: Db,
  threads: number,
  log: { error: (obj: object, msg: string) => void },
): { stop: () => void; answered: () => number } {
  if (threads <= 0) return { stop: () => undefined, answered: () => 0 }
  const pool = new SearchPool(threads, (err) => {
    if (pools.get(db) === pool) pools.delete(db)
    if (!/pool stopped/.test(err.message))
      log.error({ err }, 'A search thread failed; searches are answered on the main thread')
  })
  pools.get(db)?.stop()
  pools.set(db, pool)
  // Stopped or failed, the pool is let go of (its onFailure): askView answers on this thread.
  return { stop: () => pool.stop(), answered: () => pool.answered }
}

/** On `db`'s pool if any (the main thread goes on meanwhile); here without one or when it failed (logged). */
export async function askView(db: Db, view: FactsView, ask: PoolAsk): Promise<ViewAnswer> {
  const pool = pools.get(db)
  return pool ? pool.ask(view, ask).catch(() => searchView(view, ask)) : searchView(view, ask)
}
