import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { SearchQuery, type SearchSort } from '#contract/search'
import { countFacts, countTotal } from './facts-counts'
import { type PageAsk, pageHits, sortKeyAt } from './facts-pages'
import { COUNT_FACETS } from './filters'
import { keptOfThread } from './kept-per-copy'
import { DAY_MS, type FactRow, factsFromRows, idAt, type ListingFacts } from './listing-facts'
import { descending, textMatchesIn } from './listing-text'
import { type FactsView, markedPart, viewFacets, viewPage, viewTotal } from './listing-view'

// A page of a view whose copy has changed since it was read (dead rows in the base, a settled level, a delta): the
// largest part gives only the matches that can reach the page. Every page equals the merge of every part's matches up
// to the page's end, in the sort's order, sliced (what a view's page is by definition).

const now = Date.now()
let seed = 42
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

const idOf = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`

function row(i: number): FactRow {
  const facets = Object.fromEntries(
    COUNT_FACETS.map((name) => [
      name,
      name === 'condition' ? ['Excellent', 'Good', 'Fair'][i % 3] : String(Math.floor(random() * 4)),
    ]),
  )
  const macbook = random() < 0.3
  return {
    ...facets,
    battery: String(40 + Math.floor(random() * 61)),
    price: String(10_000 + Math.floor(random() * 500_000)),
    posted: String(Math.round((now - random() * 200 * DAY_MS) * 1000)),
    id: idOf(i),
    words: macbook ? 'apple macbook air laptop' : 'lenovo thinkpad laptop',
    title_words: macbook ? 'apple macbook air' : 'lenovo thinkpad',
    title: macbook ? 'Apple MacBook Air' : 'Lenovo ThinkPad',
  } as FactRow
}

const baseRows = Array.from({ length: 20_000 }, (_, i) => row(i))
const base = factsFromRows('1', baseRows)
// Listings changed since: dead in the base; some settled into a level as they were then (a few of them changed again,
// so dead there too), the rest in the delta as they are now.
const changed = Array.from({ length: 600 }, () => Math.floor(random() * 20_000))
const level = factsFromRows(
  '2',
  [...new Set(changed)].slice(0, 400).map((i) => row(i)),
)
const delta = factsFromRows(
  '3',
  [...new Set(changed)].slice(380, 420).map((i) => row(i)),
)
const deadIn = (f: ListingFacts, ids: Set<string>) =>
  new Set(Array.from({ length: f.size }, (_, r) => r).filter((r) => ids.has(idAt(f, r))))
const changedIds = new Set([...new Set(changed)].map(idOf))
const deltaIds = new Set(Array.from({ length: delta.size }, (_, r) => idAt(delta, r)))
const view: FactsView = {
  version: '3',
  parts: [markedPart(base, deadIn(base, changedIds)), markedPart(level, deadIn(level, deltaIds))],
  delta,
  size: 0,
}

/** Matches of several copies in a sort's order: best match by tier, then price or newest; ties by id, as the sort goes. */
const inSortOrder = (sort: SearchSort) => (a: { f: ListingFacts; r: number; tier?: number }, b: typeof a) => {
  const key = sort === 'price_asc' || sort === 'price_desc' ? 'priceCents' : 'postedUs'
  const sign = sort === 'price_asc' ? -1 : 1
  return (
    sign *
    ((b.tier ?? 0) - (a.tier ?? 0) ||
      (b.f[key][b.r] as number) - (a.f[key][a.r] as number) ||
      descending(idAt(a.f, a.r), idAt(b.f, b.r)))
  )
}

/** The page by definition: every source's matches up to the page's end, merged in the sort's order, sliced. */
function mergedPage(ask: Omit<PageAsk, 'text' | 'dead'>, terms?: Parameters<typeof textMatchesIn>[0]) {
  const textOf = terms ? textMatchesIn(terms) : undefined
  const sources: [ListingFacts, Partial<PageAsk>][] = [
    ...view.parts.map((p): [ListingFacts, Partial<PageAsk>] => [
      p.facts,
      { dead: p.dead, text: textOf?.(p.facts) },
    ]),
    [delta, { text: textOf?.(delta) }],
  ]
  const end = ask.paging.offset + ask.paging.pageSize
  const all: { f: ListingFacts; r: number; tier: number }[] = []
  for (const [f, own] of sources)
    for (const h of pageHits(f, { ...ask, paging: { offset: 0, pageSize: end }, ...own }) ?? [])
      all.push({ f, ...h })
  all.sort(inSortOrder(ask.sort))
  return all.slice(ask.paging.offset, end + 1).map((e) => idAt(e.f, e.r))
}

const macbook = { terms: [{ term: 'macbook', prefix: false }], phrase: 'macbook', bestTier: 3 as const }

describe("a changed view's pages, the largest part asked only for the matches that can reach them", () => {
  const searches: [Record<string, string>, SearchSort, boolean][] = [
    [{}, 'newest', false],
    [{ condition: 'Good' }, 'price_asc', false],
    [{ condition: 'Excellent,Fair', max_price: '3000' }, 'price_desc', false],
    [{ q: 'macbook' }, 'relevance', true],
    [{ q: 'macbook', condition: 'Fair' }, 'price_asc', true],
    [{ q: 'macbook' }, 'newest', true],
  ]
  for (const [params, sort, text] of searches)
    it(`${JSON.stringify(params)} by ${sort}: every page as the merge of every part's matches`, () => {
      const textOf = text ? textMatchesIn(macbook) : undefined
      const query = SearchQuery.parse({ ...params, sort })
      let compared = 0
      for (const pageSize of [1, 24, 100])
        for (const page of [1, 2, 3, 8, 20, 40, 120, 400]) {
          const ask = { query, sort, paging: { pageSize, offset: (page - 1) * pageSize }, nowMs: now }
          const expected = mergedPage(ask, text ? macbook : undefined)
          expect(viewPage(view, ask, textOf)).toEqual(expected)
          compared += expected.length
        }
      // The pages hold listings, deep ones among them: the comparison is not of empty pages.
      expect(compared).toBeGreaterThan(500)
    })

  it("takes the largest part's matches from exactly where the page needs them when the others' come first", () => {
    // The delta's listings the newest of all: every one of them before every listing of the base.
    const newest = factsFromRows(
      '4',
      Array.from({ length: 40 }, (_, k) => ({ ...row(30_000 + k), posted: String((now - k) * 1000) })),
    )
    const fresh: FactsView = { version: '4', parts: [markedPart(base)], delta: newest, size: 0 }
    const query = SearchQuery.parse({ sort: 'newest' })
    for (const offset of [0, 39, 40, 41, 64, 500]) {
      const ask = { query, sort: 'newest' as const, paging: { pageSize: 24, offset }, nowMs: now }
      const all = [
        ...Array.from({ length: 40 }, (_, r) => idAt(newest, r)),
        ...Array.from({ length: base.size }, (_, r) => idAt(base, r)),
      ]
      expect(viewPage(fresh, ask)).toEqual(all.slice(offset, offset + 25))
    }
  })

  it('pages through every listing of the view once, from every part', () => {
    const query = SearchQuery.parse({ sort: 'price_asc' })
    const ids: string[] = []
    for (let offset = 0; ; offset += 100) {
      const page = viewPage(view, { query, sort: 'price_asc', paging: { pageSize: 100, offset }, nowMs: now })
      ids.push(...(page ?? []).slice(0, 100))
      if ((page?.length ?? 0) <= 100) break
    }
    const live = view.parts.reduce((n, p) => n + p.facts.size - p.deadRows.length, delta.size)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.length).toBe(live)
    expect([...deltaIds].every((id) => ids.includes(id))).toBe(true)
  })

  it("gives every page when a smaller part's matches are as thick as the largest's, up to the page's last match", () => {
    // A level a third of the base, its listings spread among the base's: most pages hold listings of both. Their ids
    // alternate, so listings of equal price or time fall on either side of the page's last by id.
    const big = factsFromRows(
      '6',
      Array.from({ length: 6_000 }, (_, i) => row(50_000 + 2 * i)),
    )
    const thick = factsFromRows(
      '6',
      Array.from({ length: 2_000 }, (_, i) => row(50_001 + 2 * i)),
    )
    const both: FactsView = { version: '6', parts: [markedPart(big), markedPart(thick)], delta, size: 0 }
    const textOf = textMatchesIn(macbook)
    for (const [params, sort] of [
      [{}, 'newest'],
      [{ q: 'macbook' }, 'newest'],
      [{ condition: 'Good' }, 'price_asc'],
      [{ q: 'macbook' }, 'price_asc'],
      [{ max_price: '4000' }, 'price_desc'],
    ] as const) {
      const query = SearchQuery.parse({ ...params, sort })
      const text = 'q' in params ? textOf : undefined
      // Every live match of the view in the sort's order: the definition of its pages.
      const all = [big, thick, delta]
        .flatMap((f) =>
          (
            pageHits(f, {
              query,
              sort,
              paging: { offset: 0, pageSize: f.size },
              nowMs: now,
              text: text?.(f),
            }) ?? []
          ).map((h) => ({ f, r: h.r })),
        )
        .sort(inSortOrder(sort))
        .map((e) => idAt(e.f, e.r))
      expect(all.length).toBeGreaterThan(400)
      for (const pageSize of [1, 7, 24])
        for (let offset = 0; offset < Math.min(all.length, 400); offset += pageSize) {
          const ask = { query, sort, paging: { pageSize, offset }, nowMs: now }
          expect(viewPage(both, ask, text), `${sort} at ${offset}`).toEqual(
            all.slice(offset, offset + pageSize + 1),
          )
        }
    }
  })

  it('walks only up to the listing given as `until`, ties by id included, and keeps no walk so bounded', () => {
    const wide = factsFromRows(
      '7',
      Array.from({ length: 6_000 }, (_, i) => row(70_000 + i)),
    )
    const asks: [ListingFacts, Record<string, string>, SearchSort][] = [
      // Walked afresh: a part under 4,096 listings, and a date filter on a larger copy.
      [level, { condition: 'Good' }, 'price_desc'],
      [level, {}, 'price_asc'],
      [level, {}, 'newest'],
      [wide, { posted_within: '30' }, 'newest'],
      [wide, { posted_within: '30' }, 'price_asc'],
      [wide, { posted_within: '7', condition: 'Fair' }, 'price_desc'],
    ]
    let ties = 0
    for (const [f, params, sort] of asks) {
      const ask = { query: SearchQuery.parse({ ...params, sort }), sort, nowMs: now }
      const every = pageHits(f, { ...ask, paging: { offset: 0, pageSize: f.size } }) ?? []
      expect(every.length, `${JSON.stringify(params)} ${sort}`).toBeGreaterThan(20)
      for (let j = 0; j < Math.min(every.length, 200); j += 7) {
        const at = (every[j] as { r: number }).r
        const next = every[j + 1]
        if (next && sortKeyAt(f, next.r, sort).k === sortKeyAt(f, at, sort).k) ties++
        const upTo = pageHits(f, {
          ...ask,
          paging: { offset: 0, pageSize: 300 },
          until: sortKeyAt(f, at, sort),
        })
        expect(upTo, `${JSON.stringify(params)} ${sort} up to ${j}`).toEqual(every.slice(0, j + 1))
      }
    }
    // A kept walk (a copy of 4,096 or more without a date filter) is not bounded: a later search of it gets its page.
    const rows = Array.from({ length: 6_000 }, (_, i) => row(80_000 + i))
    const probe = factsFromRows('8', rows)
    const fresh = factsFromRows('8', rows)
    const ask = { query: SearchQuery.parse({ sort: 'price_asc' }), sort: 'price_asc' as const, nowMs: now }
    const page = pageHits(probe, { ...ask, paging: { offset: 0, pageSize: 60 } }) ?? []
    const tenth = page[10] as { r: number }
    pageHits(fresh, {
      ...ask,
      paging: { offset: 0, pageSize: 60 },
      until: sortKeyAt(probe, tenth.r, 'price_asc'),
    })
    expect(page.length).toBe(61)
    expect(pageHits(fresh, { ...ask, paging: { offset: 0, pageSize: 60 } })).toEqual(page)
    expect(ties).toBeGreaterThan(0)
  })

  it('walks a copy with dead rows once for a page asked the first time, past the dead rows likely among it', () => {
    // Two copies none has searched, one with 2% of its rows dead: about ten among a page's first 505 matches.
    const dead = new Set(Array.from({ length: 400 }, (_, k) => k * 50 + 7))
    const firstHits = keptOfThread.find((kept) => kept.name === 'first hits')
    const query = SearchQuery.parse({ sort: 'newest' })
    const keptBytes = (deadRows: Set<number>) => {
      const fresh = factsFromRows('5', baseRows)
      const alone: FactsView = {
        version: '5',
        parts: [markedPart(fresh, deadRows)],
        delta: factsFromRows('5', []),
        size: 0,
      }
      const page = viewPage(alone, {
        query,
        sort: 'newest',
        paging: { pageSize: 24, offset: 480 },
        nowMs: now,
      })
      const live = Array.from({ length: fresh.size }, (_, r) => r).filter((r) => !deadRows.has(r))
      expect(page).toEqual(live.slice(480, 505).map((r) => idAt(fresh, r)))
      const held = firstHits?.held(fresh)
      expect(held?.values).toBe(1)
      return held?.bytes ?? 0
    }
    // Kept: the walk's matches. Walked once past the dead rows, a few more than the copy without; walked again to twice
    // as far, about twice as many.
    const withoutDead = keptBytes(new Set())
    const withDead = keptBytes(dead)
    expect(withDead).toBeGreaterThan(withoutDead)
    expect(withDead - withoutDead).toBeLessThan(withoutDead / 10)
  })
})

describe("a few rows' counts (a view's dead rows)", () => {
  it('equal the counts of a copy of those rows alone, search after search', () => {
    const rowOfId = new Map(Array.from({ length: base.size }, (_, r) => [idAt(base, r), r]))
    const few = [...changedIds].map((id) => rowOfId.get(id) as number).sort((a, b) => a - b)
    const alone = factsFromRows(
      '1',
      baseRows.filter((r) => changedIds.has(r.id)),
    )
    const every = Int32Array.from({ length: alone.size }, (_, r) => r)
    const searches = [
      {},
      { condition: 'Good' },
      { min_price: '2000', min_battery_pct: '70' },
      { posted_within: '30' },
    ]
    for (let round = 0; round < 2; round++)
      for (const params of searches) {
        const q = SearchQuery.parse(params)
        expect(countFacts(base, q, now, few)).toEqual(countFacts(alone, q, now, every))
      }
  })
})

describe("a changed view's counts with a text", () => {
  it("equal the counts of the listings left, the dead rows near and far apart among the text's matches", () => {
    // A rare word (a match every few hundred rows), a common one, and one most listings hold.
    const rows = Array.from({ length: 6_000 }, (_, i) => {
      const r = row(50_000 + i)
      const word = i % 211 === 0 ? 'rare' : i % 3 === 0 ? 'often' : 'plain'
      return { ...r, words: `${r.words} ${word}`, title_words: `${r.title_words} ${word}` }
    })
    const copy = factsFromRows('1', rows)
    const of = (word: string) => ({
      terms: [{ term: word, prefix: false }],
      phrase: word,
      bestTier: 3 as const,
    })
    // Dead: random rows, and every other rare match itself (so some dead rows are matches, some fall between).
    const dead = new Set(Array.from({ length: 900 }, () => Math.floor(random() * copy.size)))
    for (const [k, r] of textMatchesIn(of('rare'))(copy).rows.entries()) if (k % 2 === 0) dead.add(r)
    // Views one after another, as the feed makes them (each its own dead rows gathered): fewer dead rows, all of them,
    // then an older view asked again.
    const fewer = new Set([...dead].filter((_, i) => i % 3 !== 0))
    let compared = 0
    for (const gone of [fewer, dead, fewer]) {
      const goneIds = new Set([...gone].map((r) => idAt(copy, r)))
      const left = factsFromRows(
        '1',
        rows.filter((r) => !goneIds.has(r.id)),
      )
      const changed: FactsView = {
        version: '1',
        parts: [markedPart(copy, gone)],
        delta: factsFromRows('1', []),
        size: 0,
      }
      for (const word of ['rare', 'often', 'plain'])
        for (const params of [{}, { condition: 'Good' }, { min_price: '2000' }, { posted_within: '30' }]) {
          const q = SearchQuery.parse(params)
          const textOf = textMatchesIn(of(word))
          const given = textOf(left).rows
          const what = `${gone.size} dead, ${word} ${JSON.stringify(params)}`
          expect(viewFacets(changed, q, now, textOf), what).toEqual(countFacts(left, q, now, given))
          const total = countTotal(left, q, now, Number.POSITIVE_INFINITY, given)
          expect(viewTotal(changed, q, now, 1_000_000, textOf), what).toBe(total)
          compared += total
        }
    }
    expect(compared).toBeGreaterThan(3_000)
  })
})

// V8 keeps a whole number as a small integer, or as a heap number when arithmetic made it one (-1 * 0 is -0; a
// Float64Array's element). A count stored as a heap number where the same field had held small integers remade the
// objects' shape, and the search threads threw away every compilation in flight that read it, over and over while
// listings changed (bench/README.md, "Compilations thrown away under writes").
setFlagsFromString('--allow-natives-syntax')
const isSmallInteger = new Function('n', 'return %IsSmi(n)') as (n: number) => boolean

describe("a changed view's counts", () => {
  it('are small integers, every one, though dead rows are counted out', () => {
    const searches = [
      {},
      { condition: 'Good' },
      { min_price: '2000', min_battery_pct: '95' },
      { posted_within: '7' },
    ]
    let checked = 0
    // Asked again and again, so V8's compilers have the counting code too, as under load.
    for (let round = 0; round < 60; round++)
      for (const params of searches) {
        const q = SearchQuery.parse(params)
        const counts = viewFacets(view, q, now)
        const numbers = [
          counts.total,
          counts.battery80,
          ...counts.postedWithin,
          ...Object.values(counts.values).flatMap((m) => [...m.values()]),
          viewTotal(view, q, now, 10_000),
          viewTotal(view, q, now, 5),
        ]
        for (const n of numbers) expect(isSmallInteger(n), `${JSON.stringify(params)}: ${n}`).toBe(true)
        checked += numbers.length
      }
    expect(checked).toBeGreaterThan(50)
  })
})
