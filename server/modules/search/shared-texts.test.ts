import { describe, expect, it } from 'vitest'
import { inOrder } from './listing-facts'
import { bytesOf, textAt, textIncludes, textsOf } from './shared-texts'

describe('textIncludes', () => {
  it('says what includes says of each text, for any text looked for', () => {
    const titles = [
      'lenovo thinkpad x1 carbon gen 9 intel core i7-1165g7',
      'apple macbook air m1',
      'asus zenbook 14 oled',
      'café crème – 14″ ultrabook ✓',
      'ноутбук lenovo ideapad',
      '',
      'a',
      'thinkpad',
    ]
    const texts = textsOf(titles)
    const needles = [
      '',
      'thinkpad',
      'thinkpad x1',
      'x1 carbon gen 9 intel core i7-1165g7',
      'i7-1165g7 ',
      'macbook air m1',
      'air m2',
      'é',
      'crème – 14″',
      '″ ultrabook ✓',
      '✓',
      'ноутбук',
      'ук len',
      'a',
      'aa',
      'thinkpadx',
      'apple macbook air m1 pro',
    ]
    for (const needle of needles) {
      const bytes = bytesOf(needle)
      titles.forEach((title, i) => {
        expect(
          textIncludes(texts, i, bytes),
          `${JSON.stringify(title)} holds ${JSON.stringify(needle)}`,
        ).toBe(textAt(texts, i).includes(needle))
      })
    }
  })

  it('reads only its own text, not the next one', () => {
    const texts = textsOf(['macbook', 'air'])
    expect(textIncludes(texts, 0, bytesOf('macbookair'))).toBe(false)
    expect(textIncludes(texts, 0, bytesOf('bookai'))).toBe(false)
    expect(textIncludes(texts, 1, bytesOf('kair'))).toBe(false)
  })
})

describe('inOrder', () => {
  it("gathers values by row into a shared array for a copy, and into the thread's own when asked", () => {
    const values = Float64Array.from([10, 11, 12, 13])
    const order = Int32Array.from([3, 0, 2])
    const shared = inOrder(values, order)
    const own = inOrder(values, order, false)
    expect([...shared]).toEqual([13, 10, 12])
    expect([...own]).toEqual([13, 10, 12])
    expect(shared).toBeInstanceOf(Float64Array)
    expect(own).toBeInstanceOf(Float64Array)
    expect(shared.buffer).toBeInstanceOf(SharedArrayBuffer)
    expect(own.buffer).not.toBeInstanceOf(SharedArrayBuffer)
  })
})
