import { describe, expect, it } from 'vitest'
import { withMarks } from './kept-per-copy'
import { buildTextIndex, matchText, titleOfRow } from './listing-text'
import { textCount } from './shared-texts'

// A text's matches in a copy, in row order, whatever the terms: whole words, prefixes that cover many words (whose
// rows come out of order and are put back in order), few or many matching rows.

const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

const VOCABULARY = ['gaming', 'galaxy', 'game', 'gamer', 'thinkpad', 'thin', 'pro', 'probook', 'air', 'x1']

describe('a text’s matches in a copy', () => {
  const rnd = random(7)
  const size = 3_000
  const rowWords = Array.from({ length: size }, () => VOCABULARY.filter(() => rnd() < 0.3))
  const index = buildTextIndex(
    size,
    rowWords.map((w) => w.join(' ')).join('\n'),
    rowWords.map(() => '').join('\n'),
    rowWords.map((w) => w.join(' ')),
  )
  const has = (words: string[], term: string, prefix: boolean) =>
    words.some((w) => (prefix ? w.startsWith(term) : w === term))

  for (const terms of [
    [{ term: 'thinkpad', prefix: false }],
    [{ term: 'ga', prefix: true }],
    [{ term: 'g', prefix: true }],
    [
      { term: 'pro', prefix: false },
      { term: 'ga', prefix: true },
    ],
    [
      { term: 'air', prefix: false },
      { term: 'thin', prefix: true },
    ],
    [
      { term: 'x1', prefix: false },
      { term: 'gamer', prefix: false },
      { term: 'p', prefix: true },
    ],
  ])
    it(`are the rows with every term, in row order: ${terms.map((t) => t.term + (t.prefix ? '*' : '')).join(' ')}`, () => {
      const expected = rowWords.flatMap((words, r) =>
        terms.every((t) => has(words, t.term, t.prefix)) ? [r] : [],
      )
      const { rows } = matchText(index, size, { terms, phrase: '', bestTier: 3 })
      expect(Array.from(rows)).toEqual(expected)
      // The thread's marks, which the match used, are left unmarked for the next.
      expect(withMarks(size, (marks) => marks.subarray(0, size).every((m) => m === 0))).toBe(true)
    })

  it('reads one word’s rows where the index holds them, and a search narrowing them leaves them whole', () => {
    const word = (term: string) => ({ term, prefix: false })
    const alone = (term: string) =>
      matchText(index, size, { terms: [word(term)], phrase: '', bestTier: 3 }).rows
    const expected = (term: string) => rowWords.flatMap((words, r) => (words.includes(term) ? [r] : []))
    expect(alone('x1').buffer).toBe(index.all.rows.buffer)
    const both = matchText(index, size, { terms: [word('x1'), word('gamer')], phrase: '', bestTier: 3 }).rows
    expect(both.buffer).not.toBe(index.all.rows.buffer)
    expect(both.length).toBeLessThan(Math.min(expected('x1').length, expected('gamer').length))
    expect(Array.from(alone('x1'))).toEqual(expected('x1'))
    expect(Array.from(alone('gamer'))).toEqual(expected('gamer'))
  })

  it('holds each distinct title once, and ranks a row by its own title', () => {
    const titles = rowWords.map((w) => w.join(' '))
    expect(textCount(index.titles)).toBe(new Set(titles).size)
    expect(textCount(index.titles)).toBeLessThan(size / 2)
    for (let r = 0; r < size; r++) expect(titleOfRow(index, r)).toBe(titles[r])
    // Many matches: the phrase is read once a title, every listing with that title gets the same answer (2: in the
    // title). Fewer matches than titles: read for each match.
    for (const [terms, phrase, many] of [
      [[{ term: 'pro', prefix: true }], 'pro air', true],
      [
        [
          { term: 'x1', prefix: false },
          { term: 'gamer', prefix: false },
          { term: 'air', prefix: false },
        ],
        'gamer air',
        false,
      ],
    ] as const) {
      const text = matchText(index, size, { terms: [...terms], phrase, bestTier: 3 })
      expect(text.rows.length > textCount(index.titles)).toBe(many)
      const tiers = Array.from(text.rows, (r, i) => [titles[r]?.includes(phrase) ? 2 : 0, text.tierAt(i)])
      expect(tiers.some(([want]) => want === 2)).toBe(true)
      for (const [want, got] of tiers) expect(got).toBe(want)
    }
  })

  it('looks a common term up row by row after a rare one, with the same rows as reading it through', () => {
    const many = 6_000
    const words = Array.from({ length: many }, (_, r) =>
      [r % 97 === 3 ? 'rare' : '', r % 2 ? 'pro' : '', r % 3 ? 'probook' : '', r % 5 ? 'x1' : ''].filter(
        Boolean,
      ),
    )
    const big = buildTextIndex(
      many,
      words.map((w) => w.join(' ')).join('\n'),
      words.map(() => '').join('\n'),
      words.map((w) => w.join(' ')),
    )
    for (const terms of [
      [
        { term: 'rare', prefix: false },
        { term: 'pro', prefix: true },
      ],
      [
        { term: 'rare', prefix: false },
        { term: 'pro', prefix: false },
        { term: 'x1', prefix: false },
      ],
      [
        { term: 'x1', prefix: false },
        { term: 'probook', prefix: false },
      ],
    ]) {
      const expected = words.flatMap((w, r) => (terms.every((t) => has(w, t.term, t.prefix)) ? [r] : []))
      expect(expected.length).toBeGreaterThan(0)
      expect(Array.from(matchText(big, many, { terms, phrase: '', bestTier: 3 }).rows)).toEqual(expected)
    }
  })
})
