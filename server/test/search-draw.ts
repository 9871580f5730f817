// The searches people send, drawn at random: words (model names, misspellings, prefixes being typed), filters, every
// sort, pages 1–30, facets on half. The mixed and long-tail runs of `npm run bench:scale` (bench/mixed.ts) send them;
// the search's agreement test (server/modules/search/filters.test.ts) asks them of the copy and of SQL.

export const WORDS = [
  'thinkpad',
  'x1 carbon',
  'thinkpad t14',
  'ideapad',
  'legion 5 pro',
  'yoga 7i',
  'xps 13',
  'xps 15 9510',
  'latitude 5420',
  'inspiron',
  'alienware m15',
  'precision',
  'spectre x360',
  'elitebook 840',
  'pavilion',
  'envy 13',
  'omen 16',
  'probook',
  'macbook air m1',
  'macbook air m2',
  'macbook pro 14',
  'macbook pro 16 m2 max',
  'zenbook 14 oled',
  'rog zephyrus',
  'vivobook',
  'tuf gaming',
  'expertbook',
  'swift 3',
  'aspire 5',
  'nitro 5',
  'predator helios',
  'gs66 stealth',
  'modern 14',
  'katana',
  'surface laptop 4',
  'surface book',
  'galaxy book2 pro',
  'blade 15',
  'ryzen 7',
  'ryzen 5 5600u',
  'core i7',
  'i5-1135g7',
  'apple m1 pro',
  'charger and box',
  'light scratches',
  'like new',
  'dead pixels',
  'gaming laptop',
  '16gb',
  '32gb 1024gb',
]

/** A typo: a letter dropped, doubled or two swapped. */
export function misspell(word: string, rnd: () => number): string {
  const i = 1 + Math.floor(rnd() * Math.max(1, word.length - 2))
  const kind = Math.floor(rnd() * 3)
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1)
  if (kind === 1) return word.slice(0, i) + word[i] + word.slice(i)
  return word.slice(0, i - 1) + (word[i] ?? '') + (word[i - 1] ?? '') + word.slice(i + 1)
}

const CONDITIONS = ['Excellent', 'Good', 'Fair', 'Excellent,Good']

/** What is typed, if anything: a word of the list, a misspelling of one, or one being typed (its last word cut short). */
export function drawWords(rnd: () => number): string | undefined {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T
  const kind = rnd()
  if (kind < 0.25) return pick(WORDS)
  if (kind < 0.35) return misspell(pick(WORDS), rnd)
  if (kind < 0.45) {
    const w = pick(WORDS)
    return w.slice(0, Math.max(2, Math.ceil(w.length * (0.3 + rnd() * 0.6))))
  }
  return undefined
}

/** The order and the page: the default order on most, every sort on some; most look at the first page, some go far. */
export function drawOrder(rnd: () => number): {
  sort?: 'price_asc' | 'price_desc' | 'newest'
  page?: number
} {
  const r = rnd()
  const sort = r < 0.2 ? 'price_asc' : r < 0.35 ? 'price_desc' : r < 0.45 ? 'newest' : undefined
  const page = rnd() < 0.6 ? 1 : 2 + Math.floor(rnd() ** 2 * 29)
  return { ...(sort ? { sort } : {}), ...(page > 1 ? { page } : {}) }
}

/**
 * One search drawn from the mix. `wide` draws from a space of millions rather than the few hundred of the mixed run:
 * any word, misspelling or prefix of it, any brand (one or two), condition, a price range to the dollar, RAM, a
 * battery floor from 50 to 99, every sort, pages 1–30, facets on half.
 */
export function drawSearch(rnd: () => number, brandIds: string[], wide: boolean): URLSearchParams {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)] as T
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1))
  const p = new URLSearchParams()
  const words = drawWords(rnd)
  if (words !== undefined) p.set('q', words)
  // Filters on most searches: brand, condition, price, RAM, battery, storage, screen, posted within.
  if (rnd() < 0.4) p.set('brand', pick(brandIds))
  if (rnd() < 0.1) p.set('brand', `${pick(brandIds)},${pick(brandIds)}`)
  if (rnd() < 0.25)
    p.set('condition', pick(wide ? ['Excellent', 'Good', 'Fair', 'Excellent,Good', 'Good,Fair'] : CONDITIONS))
  if (rnd() < 0.25)
    p.set('max_price', String(wide ? between(200, 3000) : pick([300, 500, 800, 1000, 1500, 2000])))
  if (rnd() < 0.15) p.set('min_price', String(wide ? between(100, 1200) : pick([150, 250, 400, 700])))
  if (rnd() < 0.15) p.set('min_ram_gb', String(pick([8, 16, 32])))
  if (rnd() < 0.1) p.set('ram', pick(['8', '16', '16,32']))
  if (rnd() < 0.1) p.set('storage', pick(['256', '512', '512,1024']))
  if (rnd() < 0.1) p.set('screen', pick(['13', '14', '15']))
  if (rnd() < 0.12) p.set('min_battery_pct', String(wide ? between(50, 99) : pick([70, 80, 90, 95])))
  if (rnd() < 0.05) p.set('posted_within', String(pick([1, 7, 30, 90])))
  if (rnd() < 0.05) p.set('processor', pick(['intel-core-i7', 'amd-ryzen-7', 'apple-m']))
  const { sort, page } = drawOrder(rnd)
  if (sort) p.set('sort', sort)
  if (page) p.set('page', String(page))
  if (rnd() < 0.5) p.set('facets', '1')
  return p
}
