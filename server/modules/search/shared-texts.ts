import { Buffer } from 'node:buffer'
import { onceEach } from './kept-per-copy'

// Texts of the copy (ids, titles, words) as bytes, in shared memory with its other arrays (shareCopy): every
// search thread reads one set, decoding a text only on read. docs/decisions/0088-shared-texts-of-the-copy.md

/** Texts one after the other as UTF-8: text i is bytes ends[i - 1] (0 for the first) .. ends[i] - 1. */
export type Texts = { bytes: Uint8Array; ends: Int32Array }

/** A Buffer over the same memory as each byte array (shared or not), made once per array. */
const bufferOf = onceEach((bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
)

export function textsOf(list: readonly string[]): Texts {
  const ends = new Int32Array(list.length)
  let size = 0
  for (let i = 0; i < list.length; i++) {
    size += Buffer.byteLength(list[i] ?? '')
    ends[i] = size
  }
  const bytes = new Uint8Array(size)
  const buf = bufferOf(bytes)
  let at = 0
  for (const text of list) at += buf.write(text ?? '', at)
  return { bytes, ends }
}

export const textCount = (t: Texts) => t.ends.length

/**
 * Distinct values in order of first appearance: `placeOf` a value gives its place, a new one the next. The order a
 * read gives a copy's facet values and titles, and a copy made from a view keeps (facet-columns.ts, listing-text.ts,
 * facts-rebase.ts).
 */
export function firstAppearance() {
  const values: string[] = []
  const position = new Map<string, number>()
  const placeOf = (value: string) => {
    let at = position.get(value)
    if (at === undefined) {
      at = values.push(value) - 1
      position.set(value, at)
    }
    return at
  }
  return { values, placeOf }
}

export type ArrayKind<A> = { new (buffer: SharedArrayBuffer): A; BYTES_PER_ELEMENT: number }

/**
 * An array of `length` made in shared memory: a copy's arrays are made there, read or made from a view, so handing the
 * copy over copies none (shareCopy, search-pool.ts, copied about 300 MB at 1,000,000 listings). Decision 0165.
 */
export const sharedArray = <A>(Kind: ArrayKind<A>, length: number): A =>
  new Kind(new SharedArrayBuffer(length * Kind.BYTES_PER_ELEMENT))

/** `values` in a shared array of kind `Kind` (sharedArray). */
export function sharedFrom<A extends { set: (values: ArrayLike<number>) => void }>(
  Kind: ArrayKind<A>,
  values: ArrayLike<number>,
): A {
  const array = sharedArray(Kind, values.length)
  array.set(values)
  return array
}

export function textAt(t: Texts, i: number): string {
  const start = i === 0 ? 0 : (t.ends[i - 1] as number)
  return bufferOf(t.bytes).toString('utf8', start, t.ends[i] as number)
}

/** A text as bytes, as `textIncludes` looks for it. */
export const bytesOf = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'))

/**
 * Whether text i holds `needle` (bytesOf) as `textAt(t, i).includes` would, in place (UTF-8 bytes match only
 * at a char's start): best match asks it per ranked match; decoding titles outlasted the rest of ranking.
 */
export function textIncludes(t: Texts, i: number, needle: Uint8Array): boolean {
  const { bytes, ends } = t
  const start = i === 0 ? 0 : (ends[i - 1] as number)
  const last = (ends[i] as number) - needle.length
  const first = needle[0]
  if (first === undefined) return true
  search: for (let at = start; at <= last; at++) {
    if (bytes[at] !== first) continue
    for (let k = 1; k < needle.length; k++) if (bytes[at + k] !== needle[k]) continue search
    return true
  }
  return false
}

/** Whether `needle` is in the bytes read as one: also if it spans two texts (false is sure, true is not). */
export const someTextMayInclude = (t: Texts, needle: Uint8Array): boolean =>
  bufferOf(t.bytes).indexOf(needle) >= 0

/** Text of one-byte characters (ids) as bytes. */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = sharedArray(Uint8Array, text.length)
  bufferOf(bytes).write(text, 0, 'latin1')
  return bytes
}

/** The one-byte characters at `start` .. `end` - 1 of `bytes`. */
export const latin1At = (bytes: Uint8Array, start: number, end: number) =>
  bufferOf(bytes).toString('latin1', start, end)
