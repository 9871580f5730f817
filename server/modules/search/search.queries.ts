import { and, type SQL, sql } from 'drizzle-orm'
import { FACETS, type FilterKey, filterOf, labelOf, orderChoices } from '#contract/filters'
import { TOTAL_THRESHOLD } from '#contract/paging'
import {
  BATTERY_FACET_PCT,
  type Facets,
  type SearchQuery,
  type SearchResult,
  type SearchSort,
  type Suggestions,
} from '#contract/search'
import type { Db } from '#server/db/client'
import { listingOnSale } from '#server/db/on-sale-predicate'
import { brands, products } from '#server/db/schema'
import { isOnSale } from '#server/lib/on-sale'
import {
  type CursorKey,
  countUpTo,
  decodeCursor,
  encodeCursor,
  estimateRows,
  intKey,
  limitOffset,
  readPaging,
  rowsOf,
  timestampKey,
} from '#server/lib/paging'
import { selectPageRows, toProduct, type Versions } from '#server/modules/products'
import type { PageSpan } from './facts-pages'
import {
  COUNT_FACETS,
  type CountFacet,
  choiceSql,
  conditionOf,
  conditionsOf,
  copyAnswers,
  perCountFacet,
} from './filters'
import { onceEach } from './kept-per-copy'
import { currentFacts, readListingPage, readVersions, searchWhileRead } from './listing-feed'
import { textMatchesIn } from './listing-text'
import { viewFacets, viewTotal } from './listing-view'

// The search engine, inside PostgreSQL: docs/decisions/0015-search-engine.md.

// --- Text: words corrected against the titles' vocabulary, then one full-text query. ---

const MAX_WORDS = 8

/** Lower-case letters and digits only: whatever else was typed (quotes, %, \, emoji) cannot reach a query. */
export function searchWords(q: string): string[] {
  return q
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0)
    .slice(0, MAX_WORDS)
    .map((w) => w.slice(0, 40))
}

/** A search's words as searched for (TextTerms: each a whole word, or the start of one), and in SQL. */
type TextMatch = NonNullable<Awaited<ReturnType<typeof resolveText>>>

/**
 * Each word as titles spell it: joined with the next when together a title word ("mac book" → macbook);
 * else kept when a title has it (also joined title words: "i71165g7"), completed when it starts one (as you
 * type), else the most similar title word (typos: "thnkpad" → thinkpad), else kept to match descriptions.
 */
export async function resolveText(db: Db, q: string) {
  const words = searchWords(q)
  if (words.length === 0) return null
  const rows = await rowsOf<{
    word: string
    fixed: string | null
    fixed_in_name: boolean | null
    prefix: boolean
    prefix_in_name: boolean
    terms_version: string
    plain: boolean
    together: string | null
    together_in_name: boolean | null
  }>(
    db,
    sql`
    select (select terms_version::text from listing_counts_version where id) as terms_version, c.word, c.fixed, (select s.in_name from search_terms s where s.term = c.fixed) as fixed_in_name,
      exists (select 1 from search_terms s where s.term like c.word || '%') as prefix,
      exists (select 1 from search_terms s where s.term like c.word || '%' and s.in_name) as prefix_in_name,
      tsvector_to_array(to_tsvector('simple', c.word)) = array[c.word]
        and (c.fixed is null or tsvector_to_array(to_tsvector('simple', c.fixed)) = array[c.fixed]) as plain,
      j.term as together, j.in_name as together_in_name
    from (
      select t.word, t.n, lead(t.word) over (order by t.n) as next_word,
        coalesce(
          (select s.term from search_terms s where s.term = t.word),
          (select s.term from search_terms s where length(t.word) >= 3 and not s.joined and s.term % t.word
             order by similarity(s.term, t.word) desc, s.term limit 1)
        ) as fixed
      from unnest(${`{${words.join(',')}}`}::text[]) with ordinality as t(word, n)) c
    left join search_terms j on j.term = c.word || c.next_word and not j.joined
    order by c.n`,
  )
  const terms: { term: string; prefix: boolean; inName: boolean; typed: string }[] = []
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as (typeof rows)[number]
    if (r.together) {
      // Whole: "mac book" is macbook, not mac & book.
      terms.push({ term: r.together, prefix: false, inName: r.together_in_name === true, typed: r.together })
      i++
    }
    // The last word may still be being typed: a prefix of a title word beats a correction.
    else if (i === rows.length - 1 && r.prefix && r.fixed !== r.word)
      terms.push({ term: r.word, prefix: true, inName: r.prefix_in_name, typed: r.word })
    else
      terms.push({ term: r.fixed ?? r.word, prefix: false, inName: r.fixed_in_name === true, typed: r.word })
  }
  return {
    tsquery: terms.map((t) => (t.prefix ? `${t.term}:*` : t.term)).join(' & '),
    titleQuery: terms.map((t) => `${t.term}${t.prefix ? ':*A' : ':A'}`).join(' & '),
    phrase: terms.map((t) => t.term).join(' '),
    /** The best tier a listing can reach: 3, or 2 when some word is in no listing's brand or name. */
    bestTier: terms.every((t) => t.inName) ? 3 : 2,
    /** The vocabulary's version (listing_counts_version.terms_version) this was read at. */
    termsVersion: rows[0]?.terms_version ?? '0',
    terms: terms.map((t) => ({ term: t.term, prefix: t.prefix })),
    /** What was typed for each term (two words joined into one term read as that term). */
    typed: terms.map((t) => t.typed),
    /** Whether the database reads each term as that one word (the listings' facts can then match it in memory). */
    plain: rows.every((r) => r.plain),
  }
}

/** Per instance, with terms versions: a page at another forgets it, runs again (findProducts). Not a TTL. */
const correctionsOf = onceEach((_: Db) => new Map<string, TextMatch>())
const MAX_CORRECTIONS = 5_000

/** `fresh`: read now, so its version needs no check. */
async function resolveTextOnce(db: Db, q: string): Promise<{ match: TextMatch | null; fresh: boolean }> {
  const key = searchWords(q).join(' ')
  const held = correctionsOf(db)
  const known = held.get(key)
  if (known) return { match: known, fresh: false }
  const match = await resolveText(db, q)
  if (!match) return { match, fresh: true }
  // A Map keeps insertion order: the oldest goes first.
  if (held.size >= MAX_CORRECTIONS) held.delete(held.keys().next().value as string)
  held.set(key, match)
  return { match, fresh: true }
}

const matching = (tsquery: string) => sql`${products.searchVector} @@ to_tsquery('simple', ${tsquery})`
/** The title holds the words as typed, in a row (the exact model). */
const inTitle = (m: TextMatch) => sql`position(${m.phrase} in ${products.searchTitle}) > 0`

/** 2 for inTitle, 1 more for all words in the name, then newest. An integer: keyset paging is exact. */
const relevanceTier = (m: TextMatch) =>
  sql<number>`((${inTitle(m)})::int * 2 + (${matching(m.titleQuery)})::int)`

/** `base`: on sale, the text and the non-facet filters; `where` adds the facet filters. */
function searchSql(q: SearchQuery, text: TextMatch | undefined) {
  const { facets: filters, plain } = conditionsOf(q)
  const base = and(isOnSale, text ? matching(text.tsquery) : undefined, ...plain) as SQL
  return { filters, base, where: and(base, ...Object.values(filters)) as SQL }
}

/** For callers counting or listing matches their own way (saved searches); null: no searchable word. */
export async function searchCondition(db: Db, q: SearchQuery): Promise<SQL | null> {
  const text = q.q ? await resolveText(db, q.q) : undefined
  return text === null ? null : searchSql(q, text).where
}

type Total = { total: number; isEstimate: boolean }
const capped = (n: number, cap = TOTAL_THRESHOLD): Total =>
  n > cap ? { total: cap, isEstimate: true } : { total: n, isEstimate: false }

/**
 * A text search counts at most this many ("1,000+"): a full-text index cannot count alone, so a common word
 * would read thousands of rows a request. Counted first, it also says whether they are many (`bestTierIds`).
 */
export const TEXT_TOTAL_THRESHOLD = 1_000

/** Times the threshold the planner's estimate must exceed to skip the count. */
const ESTIMATE_MARGIN = 3

// --- GET /api/search ---

const postedText = sql`${products.postedOn}::text`
/** The newest-first index's order; `olderThan`: its keyset past a cursor's time and id. */
const NEWEST = [sql`${products.postedOn} desc nulls last`, sql`${products.id} desc nulls last`]
const olderThan = (time: string | number | undefined, id: string) =>
  sql`(${products.postedOn}, ${products.id}) < (${timestampKey(time)}, ${id}::uuid)`

type SortPlan = {
  k0: SQL
  k1?: SQL
  orderBy: SQL[]
  after: (c: CursorKey) => SQL
  keyOf: (r: { k0: string; k1: string }) => (string | number)[]
}

export function sortPlan(sort: SearchSort, text?: TextMatch): SortPlan {
  const tier = text ? relevanceTier(text) : sql`0`
  switch (sort) {
    case 'price_asc':
    case 'price_desc': {
      const [dir, past] =
        sort === 'price_asc' ? [sql.raw('asc'), sql.raw('>')] : [sql.raw('desc'), sql.raw('<')]
      return {
        k0: sql`${products.resalePriceCents}`,
        orderBy: [sql`${products.resalePriceCents} ${dir}`, sql`${products.id} ${dir}`],
        after: (c) =>
          sql`(${products.resalePriceCents}, ${products.id}) ${past} (${intKey(c.k[0])}, ${c.id}::uuid)`,
        keyOf: (r) => [Number(r.k0)],
      }
    }
    case 'relevance':
      return {
        k0: tier,
        k1: postedText,
        orderBy: [sql`${tier} desc`, ...NEWEST],
        after: (c) =>
          sql`(${tier} < ${intKey(c.k[0])} or (${tier} = ${intKey(c.k[0])} and ${olderThan(c.k[1], c.id)}))`,
        keyOf: (r) => [Number(r.k0), r.k1],
      }
    default:
      return {
        k0: postedText,
        orderBy: NEWEST,
        after: (c) => olderThan(c.k[0], c.id),
        keyOf: (r) => [r.k0],
      }
  }
}

const BEST_TIER_WALK = 3_000

/**
 * Best match for many matches without ranking them all: walks the newest (its index) to a page of the text's
 * best tier, exactly the full ranking's first page as none ranks above it. Ids (one more, to know there is
 * more); fewer within BEST_TIER_WALK: the caller ranks every match. Undefined when the cursor was below it.
 */
function bestTierIds(where: SQL, text: TextMatch, cursor: CursorKey | undefined, paging: PageSpan) {
  if (cursor && Number(cursor.k[0]) !== text.bestTier) return undefined
  const after = cursor ? sql`and ${olderThan(cursor.k[1], cursor.id)}` : sql``
  const newest = sql.join(NEWEST, sql`, `)
  // The subquery's alias is the table's name, so the filters (written against products) read its columns.
  return sql`
    select ${products.id} from (
      select * from ${products} where ${listingOnSale(products)} order by ${newest}
      limit ${BEST_TIER_WALK}) as products
    where ${where} and ${inTitle(text)} ${text.bestTier === 3 ? sql`and ${matching(text.titleQuery)}` : sql``} ${after}
    order by ${newest}
    limit ${paging.pageSize + 1} offset ${paging.offset}`
}

/** One more id than the page, to know there is more. */
export function pageIds(where: SQL, plan: SortPlan, cursor: CursorKey | undefined, paging: PageSpan) {
  const past = cursor ? and(where, plan.after(cursor)) : where
  const order = sql.join(plan.orderBy, sql`, `)
  const ids = sql`select ${products.id} from ${products} where ${past} order by ${order}`
  return limitOffset(ids, paging.pageSize + 1, paging.offset)
}

type SearchOpts = { facts?: boolean }

/** `facts: false`: every count from SQL (tests compare). During a whole read a few at a time ask SQL. */
export function searchProducts(db: Db, q: SearchQuery, opts: SearchOpts = {}): Promise<SearchResult> {
  return searchWhileRead(db, () => findProducts(db, q, opts))
}

/** The sort a search is answered in: best match only with a text that matches something, else newest first. */
export function sortOf(q: SearchQuery, textMatch: TextMatch | undefined): SearchSort {
  const asked = q.sort ?? 'relevance'
  return asked === 'relevance' && !textMatch ? 'newest' : asked
}

/** Whether a search asks for its facets' counts beside its page. */
export const wantsFacets = (q: SearchQuery) => q.facets === '1' || q.facets === 'true'

async function findProducts(db: Db, q: SearchQuery, opts: SearchOpts): Promise<SearchResult> {
  const paging = readPaging(q)
  const resolved = q.q ? await resolveTextOnce(db, q.q) : undefined
  const textMatch = resolved?.match ?? undefined
  const sort = sortOf(q, textMatch)
  const cursor = paging.cursor ? decodeCursor(paging.cursor, sort, sort === 'relevance' ? 2 : 1) : undefined
  const wantFacets = wantsFacets(q)
  const answer = (items: SearchResult['items'], counted: Total, next: string | null, facets?: Facets) => ({
    items,
    total: counted.total,
    total_is_estimate: counted.isEstimate,
    page: paging.page,
    page_size: paging.pageSize,
    next_cursor: next,
    sort,
    ...(facets && { facets }),
  })
  // Only punctuation or symbols typed: nothing matches.
  if (q.q && !textMatch) return answer([], capped(0), null, wantFacets ? emptyFacets() : undefined)
  // Built only when SQL answers: the copy answers most searches.
  let asSql: ReturnType<typeof searchSql> | undefined
  const sqlOf = () => (asSql ??= searchSql(q, textMatch))
  const plan = sortPlan(sort, textMatch)
  // Ids first, in a subquery of one statement: joins, photos and columns are read for the page, not every row
  // an offset skips or a sort looks at.
  const pageOf = (ids: SQL) => selectPageRows(db, { ...plan, where: sql`${products.id} in (${ids})` })
  const pageBySql = () => pageOf(pageIds(sqlOf().where, plan, cursor, paging))
  const textOf = textMatch ? textMatchesIn(textMatch) : undefined
  // By SQL a text search counts first (TEXT_TOTAL_THRESHOLD): when many, best match walks (bestTierIds).
  let textTotal: Total | undefined
  const bySql = async () => {
    if (!textMatch) return pageBySql()
    textTotal = capped(await countUpTo(db, sqlOf().where, TEXT_TOTAL_THRESHOLD), TEXT_TOTAL_THRESHOLD)
    const many = sort === 'relevance' && textTotal.isEstimate
    const walk = many ? bestTierIds(sqlOf().where, textMatch, cursor, paging) : undefined
    const walked = walk ? await pageOf(walk) : undefined
    return walked && walked.length > paging.pageSize ? walked : pageBySql()
  }
  const copyCan = opts.facts !== false && copyAnswers(q) && textMatch?.plain !== false
  const fromFacts = copyCan
    ? { query: q, sort, paging, cursor, read: pageOf, terms: textMatch, facets: wantFacets }
    : undefined
  const { rows, view: pageView, counted: pageCounted, versions } = await readListingPage(db, fromFacts, bySql)
  // The versions the page statement read; a page without rows read them apart (or reads them now, once).
  let apart = versions
  const versionsOf = async (): Promise<Versions> => {
    if (rows[0]) return rows[0]
    apart ??= await readVersions(db)
    return apart
  }
  if (textMatch && !resolved?.fresh) {
    // Remembered: is the correction still as current as the page?
    const now = (await versionsOf()).termsVersion
    if (now !== textMatch.termsVersion) {
      correctionsOf(db).delete(searchWords(q.q as string).join(' '))
      return findProducts(db, q, opts)
    }
  }
  const hasMore = rows.length > paging.pageSize
  const pageRows = rows.slice(0, paging.pageSize)
  const last = pageRows.at(-1)
  const nextCursor = hasMore && last ? encodeCursor({ s: sort, k: plan.keyOf(last), id: last.id }) : null
  const onlyPage = !cursor && paging.offset === 0 && !hasMore
  // From the copy when it can: the page's view, or the one at the version its statement read.
  const view =
    (wantFacets || (!onlyPage && !textTotal)) && copyCan
      ? (pageView ?? currentFacts(db, (await versionsOf()).countsVersion))
      : undefined
  // Counted with the page when chosen from the view (then `view` is that view).
  const viewCounts =
    wantFacets && view ? (pageCounted?.facets ?? viewFacets(view, q, Date.now(), textOf)) : undefined
  // The view's (without facets it stops at the threshold); "10,000+" when the planner expects far more; else
  // counted up to TOTAL_THRESHOLD + 1.
  const count = async () => {
    if (view)
      return capped(
        viewCounts?.total ?? pageCounted?.total ?? viewTotal(view, q, Date.now(), TOTAL_THRESHOLD, textOf),
      )
    const many = (await estimateRows(db, sqlOf().where)) > ESTIMATE_MARGIN * TOTAL_THRESHOLD
    return capped(many ? TOTAL_THRESHOLD + 1 : await countUpTo(db, sqlOf().where))
  }
  // The only page tells its own total (as does a text count made in its pass).
  const counted = onlyPage ? capped(pageRows.length) : (textTotal ?? (await count()))
  const brandNames = async () => brandNamesAt(db, (await versionsOf()).brandsVersion)
  const facets = !wantFacets
    ? undefined
    : viewCounts
      ? facetsOf(await brandNames(), viewCounts.values, (key, i) =>
          filterOf(key).op === 'withinDays'
            ? (viewCounts.postedWithin[i] ?? 0)
            : // The copy counts one battery choice, BATTERY_FACET_PCT: any other declared would count none.
              filterOf(key).facet?.choices?.[i] === BATTERY_FACET_PCT
              ? viewCounts.battery80
              : 0,
        )
      : await countFacets(db, brandNames, sqlOf())
  return answer(pageRows.map(toProduct), counted, nextCursor, facets)
}

// --- Facets (contract/filters.ts): counts apply every other facet's filter, so one facet's choices stay
// alternatives. An `in` facet counts per choice; a threshold facet (posting date, battery floor) counts each
// declared choice as its filter at that value.

const emptyFacets = () => Object.fromEntries(FACETS.map((f) => [f.name, []])) as unknown as Facets

const THRESHOLD_FACETS = FACETS.filter((f) => filterOf(f.key).op !== 'in')
const CHOICE_SQL = COUNT_FACETS.map((name) => sql.raw(choiceSql(name)))

function facetsOf(
  brandNames: Map<string, string>,
  values: Record<CountFacet, Map<string, number>>,
  threshold: (key: FilterKey, i: number) => number,
): Facets {
  const facets = emptyFacets()
  for (const f of FACETS) {
    const counted =
      filterOf(f.key).op === 'in'
        ? [...values[f.key as CountFacet]]
        : (f.choices ?? []).map((c, i) => [String(c), threshold(f.key, i)] as const)
    facets[f.name] = orderChoices(
      f.key,
      counted
        .filter(([value, count]) => count > 0 && value !== '')
        .map(([value, count]) => ({ value, label: labelOf(f.key, value, brandNames), count })),
    )
  }
  return facets
}

async function countFacets(
  db: Db,
  names: () => Promise<Map<string, string>>,
  { base, filters }: ReturnType<typeof searchSql>,
) {
  // Every facet's filter but one (`and` of none is undefined: true).
  const allBut = (skip: FilterKey) =>
    and(...Object.entries(filters).map(([key, f]) => (key === skip ? undefined : f))) ?? sql`true`
  // One scan of `base`, grouped per facet; a threshold facet's choice counts in column `<key>_<choice index>`
  // of the row of no group.
  const thresholds = THRESHOLD_FACETS.flatMap((f) =>
    (f.choices ?? []).map(
      (c, j) =>
        sql`count(*) filter (where ${allBut(f.key)} and ${conditionOf(filterOf(f.key), Number(c))}) as ${sql.identifier(`${f.key}_${j}`)}`,
    ),
  )
  const grouped = CHOICE_SQL.map((c, i) => {
    const n = sql.raw(String(i))
    return sql`grouping(${c}) as g${n}, ${c} as v${n}, count(*) filter (where ${allBut(COUNT_FACETS[i] as CountFacet)}) as c${n}`
  })
  const sets = [...CHOICE_SQL.map((c) => sql`(${c})`), sql`()`]
  const rows = await rowsOf<Record<string, unknown>>(
    db,
    sql`select ${sql.join([...grouped, ...thresholds], sql`, `)}
    from ${products} where ${base}
    group by grouping sets (${sql.join(sets, sql`, `)})`,
  )
  const values = perCountFacet(() => new Map<string, number>())
  let all: Record<string, unknown> = {}
  for (const row of rows) {
    const i = COUNT_FACETS.findIndex((_, n) => Number(row[`g${n}`]) === 0)
    if (i >= 0) values[COUNT_FACETS[i] as CountFacet].set(String(row[`v${i}`]), Number(row[`c${i}`] ?? 0))
    else all = row
  }
  return facetsOf(await names(), values, (key, j) => Number(all[`${key}_${j}`] ?? 0))
}

export async function brandNamesOf(db: Db): Promise<Map<string, string>> {
  const rows = await db.select({ id: brands.id, name: brands.name }).from(brands)
  return new Map(rows.map((b) => [b.id, b.name]))
}

/** Kept with brands_version: only brand changes move it (migration 0037): current at a request's version. */
const brandNamesHeld = new WeakMap<Db, { version: string; names: Promise<Map<string, string>> }>()

function brandNamesAt(db: Db, brandsVersion: string): Promise<Map<string, string>> {
  const known = brandNamesHeld.get(db)
  if (known?.version === brandsVersion) return known.names
  const names = brandNamesOf(db)
  brandNamesHeld.set(db, { version: brandsVersion, names })
  names.catch(() => {
    if (brandNamesHeld.get(db)?.names === names) brandNamesHeld.delete(db)
  })
  return names
}

// --- GET /api/search/suggest ---

export async function suggest(db: Db, q: string): Promise<Suggestions> {
  const text = await resolveText(db, q)
  if (!text) return { brands: [], models: [] }
  const words = searchWords(q)
  const brandRows = await rowsOf<{ id: string; name: string; n: number }>(
    db,
    sql`
    select b.id, b.name, (select count(*)::int from (
        select 1 from ${products} where ${products.brandId} = b.id and ${isOnSale} limit ${TOTAL_THRESHOLD}) c) as n
    from brands b
    where lower(b.name) like ${`${words[0]}%`} or word_similarity(${words.join(' ')}, lower(b.name)) >= 0.5
      or lower(b.name) = any(${`{${text.phrase.split(' ').join(',')}}`}::text[])
    order by (lower(b.name) like ${`${words[0]}%`}) desc, b.name
    limit 5`,
  )
  const models = await rowsOf<{ name: string; brand_name: string; n: number }>(
    db,
    sql`
    select ${products.name} as name, b.name as brand_name, count(*)::int as n
    from ${products} join brands b on b.id = ${products.brandId}
    where ${matching(text.tsquery)} and ${isOnSale}
    group by ${products.name}, b.name
    order by n desc, ${products.name}
    limit 8`,
  )
  return {
    brands: brandRows.map((r) => ({ _id: r.id, brand_name: r.name, product_count: Number(r.n) })),
    models: models.map((r) => ({ name: r.name, brand_name: r.brand_name, count: Number(r.n) })),
  }
}
