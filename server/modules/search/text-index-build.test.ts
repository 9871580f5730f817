import { describe, expect, it } from 'vitest'
import { seededRandom } from '#server/lib/seeded-random'
import { buildTextIndex } from './listing-text'
import { textAt, textCount } from './shared-texts'

// The index is built by reading each text in place (a word becomes a string only the first time it is met). It must
// be the index that cutting the texts into a string per word gives: the same words in the same order, the same rows.

/** The index as the texts cut into strings give it: rows by '\n', words by ' '. */
function byStrings(size: number, words: string, titleWords: string) {
  const ids = new Map<string, number>()
  const read = (text: string) => {
    const lines = size > 0 ? text.split('\n') : []
    return Array.from({ length: size }, (_, r) => {
      const line = lines[r] ?? ''
      return line.length > 0 ? line.split(' ').map((w) => ids.get(w) ?? ids.set(w, ids.size).get(w)) : []
    }) as number[][]
  }
  const all = read(words)
  const title = read(titleWords)
  const byText = [...ids.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const postings = (rows: number[][]) =>
    byText.map((w) =>
      rows.flatMap((ws, r) =>
        ws.includes(ids.get(w) as number) ? ws.filter((x) => x === ids.get(w)).map(() => r) : [],
      ),
    )
  return { byText, all: postings(all), title: postings(title) }
}

/** Per word of the built index, its rows. */
function postingsOf(start: Int32Array, rows: Int32Array, count: number): number[][] {
  return Array.from({ length: count }, (_, w) =>
    Array.from(rows.subarray(start[w] as number, start[w + 1] as number)),
  )
}

describe('building the text index', () => {
  it('gives the index that cutting the texts into words gives, for any words', () => {
    const draw = seededRandom(42)
    // Words with accents, letters outside the first plane (two UTF-16 units), digits, and words met once or often.
    const alphabet = ['a', 'b', 'e', 'k', 'z', '1', '9', 'é', 'ß', 'ж', '字', '😀', '-', '.']
    const word = () =>
      Array.from(
        { length: 1 + Math.floor(draw() * 6) },
        () => alphabet[Math.floor(draw() * alphabet.length)],
      ).join('')
    const common = Array.from({ length: 30 }, word)
    for (let round = 0; round < 40; round++) {
      const size = Math.floor(draw() * 60)
      const line = () => {
        const n = draw() < 0.1 ? 0 : 1 + Math.floor(draw() * 8)
        const ws = Array.from({ length: n }, () => (draw() < 0.7 ? common[Math.floor(draw() * 30)] : word()))
        // Now and then an empty word (two spaces, or one at an end), as a split would give it.
        if (draw() < 0.05) ws.push('')
        return ws.join(' ')
      }
      // Now and then fewer lines than rows (the rest have no words).
      const lines = Math.max(0, size - (draw() < 0.2 ? 3 : 0))
      const words = Array.from({ length: lines }, line).join('\n')
      const titleWords = Array.from({ length: lines }, line).join('\n')
      const built = buildTextIndex(
        size,
        words,
        titleWords,
        Array.from({ length: size }, () => 'title'),
      )
      const expected = byStrings(size, words, titleWords)
      const count = textCount(built.words)
      expect(Array.from({ length: count }, (_, w) => textAt(built.words, w))).toEqual(expected.byText)
      expect(postingsOf(built.all.start, built.all.rows, count)).toEqual(expected.all)
      expect(postingsOf(built.title.start, built.title.rows, count)).toEqual(expected.title)
    }
  })

  it('tells apart many words, and words of the same hash', () => {
    // 200,000 distinct words: the table grows many times, and words meet others in their slot.
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`)
    const built = buildTextIndex(words.length, words.join('\n'), '', [])
    expect(textCount(built.words)).toBe(words.length)
    const sorted = [...words].sort()
    expect(textAt(built.words, 123_456)).toBe(sorted[123_456])
    // Two words whose hashes (FNV-1a over UTF-16 units, as the table hashes them) are equal: two words, two rows.
    const hash = (w: string) => {
      let h = 0x811c9dc5
      for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193)
      return h >>> 0
    }
    const seen = new Map<number, string>()
    let pair: [string, string] | undefined
    for (let i = 0; !pair; i++) {
      const w = `x${i.toString(36)}`
      const other = seen.get(hash(w))
      if (other !== undefined) pair = [other, w]
      seen.set(hash(w), w)
    }
    const two = buildTextIndex(3, `${pair[0]}\n${pair[1]}\n${pair[0]}`, '', [])
    expect(textCount(two.words)).toBe(2)
    expect(Array.from(two.all.rows)).toEqual(pair[0] < pair[1] ? [0, 2, 1] : [1, 0, 2])
  })
})
