/** The copy's size at which a KeptPerCopy given `listingsOf` keeps its whole `maxBytes`. */
const KEPT_FULL_AT_LISTINGS = 1_000_000

/** What a KeptPerCopy given `listingsOf` keeps at least, however small the copy. */
export const KEPT_AT_LEAST_BYTES = 1024 * 1024

/**
 * What a kept value costs beside its own bytes (`bytesOf`): the map's entry and its key, counted as one byte a
 * character (keys are ASCII) and a few words of headers.
 */
export const KEPT_ENTRY_BYTES = 96

/** A typed array's object and its buffer's, beside its elements. */
export const TYPED_ARRAY_BYTES = 128

/**
 * One search's facets as counted (each facet's counts by value, the date choices): 680 kept counts by combination
 * held 1.6 MB of heap at 100,000 listings.
 */
export const FACETS_BYTES = 2_560

/**
 * `make` of each key (a copy, a column, a search, a database), made when first asked for and kept as long as the key
 * is: for what is worked out once per key and never changes (`make` never gives undefined).
 */
export function onceEach<Key extends object, Value>(make: (key: Key) => Value): (key: Key) => Value {
  const made = new WeakMap<Key, Value>()
  return (key) => {
    let value = made.get(key)
    if (value === undefined) {
      value = make(key)
      made.set(key, value)
    }
    return value
  }
}

/** Every KeptPerCopy of this thread's modules, in the order they were made: together they are what a thread keeps. */
const everyKept: KeptPerCopy<object, unknown>[] = []

/** The kept values of this thread's modules, each with its name and bounds (tests add up what a thread may keep). */
export const keptOfThread = (): readonly KeptPerCopy<object, unknown>[] => everyKept

/**
 * Values worked out from a copy that never changes (the listings' facts), kept per copy and key: the
 * same searches are asked of one copy again and again, and their answers over it cannot change. The oldest go first
 * once the kept values' bytes pass `maxBytes`; a copy's values go with the copy. A value bigger than the bound on its
 * own is returned and not kept.
 *
 * Every kept map counts bytes as held: `bytesOf` gives a value's arrays and the objects around them (with anything it
 * holds that another map may drop), and each entry adds its key and KEPT_ENTRY_BYTES. Bounds counted in values, or in
 * rows matched rather than bytes, held several times what they said: under searches asked once each (every one new)
 * the maps kept filling for the copy's whole life, and the instance grew for minutes. The bounds of one thread's maps
 * add up to a small known total (kept-per-copy.test.ts), which a few thousand new searches fill.
 *
 * With `listingsOf`, values whose size grows with the copy's listings (a bit or a row number per listing matched)
 * keep `maxBytes` at 1,000,000 listings and a share of it in proportion below (KEPT_AT_LEAST_BYTES at least): as many
 * searches kept at any size.
 */
export class KeptPerCopy<Copy extends object, Value> {
  private readonly byCopy = new WeakMap<Copy, { values: Map<string, Value>; bytes: number; max: number }>()

  constructor(
    /** What the values are, for tests and measurements. */
    readonly name: string,
    private readonly maxBytes: number,
    private readonly bytesOf: (value: Value) => number,
    private readonly listingsOf?: (copy: Copy) => number,
  ) {
    everyKept.push(this as unknown as KeptPerCopy<object, unknown>)
  }

  /** The bytes kept at most for a copy of `listings` listings. */
  maxFor(listings: number): number {
    if (!this.listingsOf) return this.maxBytes
    // A small copy's share would not hold its values' own objects: a few hundred listings would keep a search or two.
    const floor = Math.min(this.maxBytes, KEPT_AT_LEAST_BYTES)
    return Math.max(floor, this.maxBytes * Math.min(1, listings / KEPT_FULL_AT_LISTINGS))
  }

  /** What is kept for `copy`: how many values, their bytes as counted, and the bound. */
  held(copy: Copy): { values: number; bytes: number; max: number } {
    const kept = this.byCopy.get(copy)
    return kept
      ? { values: kept.values.size, bytes: kept.bytes, max: kept.max }
      : { values: 0, bytes: 0, max: 0 }
  }

  get(copy: Copy, key: string, make: () => Value): Value {
    const kept = this.keptFor(copy)
    if (kept.values.has(key)) return kept.values.get(key) as Value
    return this.set(copy, key, make())
  }

  /** Keeps `value` for `key` in place of what was kept for it. */
  set(copy: Copy, key: string, value: Value): Value {
    const kept = this.keptFor(copy)
    const was = kept.values.get(key)
    if (was !== undefined) {
      kept.values.delete(key)
      kept.bytes -= this.entryBytes(key, was)
    }
    const bytes = this.entryBytes(key, value)
    if (bytes > kept.max) return value
    // A Map keeps its keys in the order they were added: the oldest first.
    for (const [oldest, old] of kept.values) {
      if (kept.bytes + bytes <= kept.max) break
      kept.values.delete(oldest)
      kept.bytes -= this.entryBytes(oldest, old)
    }
    kept.values.set(key, value)
    kept.bytes += bytes
    return value
  }

  private entryBytes(key: string, value: Value): number {
    return KEPT_ENTRY_BYTES + key.length + this.bytesOf(value)
  }

  private keptFor(copy: Copy) {
    let kept = this.byCopy.get(copy)
    if (!kept) {
      kept = { values: new Map(), bytes: 0, max: this.maxFor(this.listingsOf ? this.listingsOf(copy) : 0) }
      this.byCopy.set(copy, kept)
    }
    return kept
  }
}

/** The thread's marks (withMarks): all 0 between calls. */
let marks = new Uint8Array(0)
let marking = false

/**
 * A mark per row of a copy of `size` rows, all 0, for one synchronous call: `use` must leave every mark it set at 0
 * again. One array per thread, reused: a search's marks were a new array of a byte per listing (1 MB at 1,000,000
 * listings) up to three times a search, which the garbage collector then had to reclaim, on its own threads.
 */
export function withMarks<T>(size: number, use: (marks: Uint8Array) => T): T {
  // Within another's call (not done today): marks of its own.
  if (marking) return use(new Uint8Array(size))
  if (marks.length < size) marks = new Uint8Array(size)
  marking = true
  try {
    return use(marks)
  } catch (err) {
    marks.fill(0)
    throw err
  } finally {
    marking = false
  }
}
