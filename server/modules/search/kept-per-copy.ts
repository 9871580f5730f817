/** The copy's size at which a KeptPerCopy given `listingsOf` keeps its whole `maxBytes`. */
const KEPT_FULL_AT_LISTINGS = 1_000_000

/** What a KeptPerCopy given `listingsOf` keeps at least, however small the copy. */
export const KEPT_AT_LEAST_BYTES = 1024 * 1024

/** A kept value's map entry and headers, beside its key (ASCII: a byte a char) and its bytes (`bytesOf`). */
export const KEPT_ENTRY_BYTES = 96

/** A typed array's object and its buffer's, beside its elements. */
export const TYPED_ARRAY_BYTES = 128

/** One search's counted facets: 680 kept counts by combination held 1.6 MB of heap at 100,000 listings. */
export const FACETS_BYTES = 2_560

/** `make` (never undefined) once per key (a copy, column, search, database), kept while the key is. */
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

/** Keys asked once a KeptPerCopy `askedTwice` remembers per copy, the oldest forgotten first. */
export const ASKED_KEYS = 4_096

/** Every KeptPerCopy of this thread's modules, in order made: together, what a thread keeps. */
export const keptOfThread: KeptPerCopy<object, unknown>[] = []

/**
 * Values from a never-changing copy (the listings' facts) per copy and key: one copy gets the same searches
 * again and again. Oldest go first past `maxBytes`; a copy's values go with it; one over the bound is not
 * kept. Bounds are bytes as held (`bytesOf` + key + KEPT_ENTRY_BYTES): bounds in values or rows held several
 * times what they said, and searches asked once each grew the instance for minutes. A thread's bounds sum to
 * a small known total (kept-bounds.test.ts). With `listingsOf`, values growing with the copy (a bit or row
 * per listing) keep `maxBytes` at 1,000,000 listings, in proportion below (KEPT_AT_LEAST_BYTES at least).
 * `askedTwice`: a value is kept only for a key asked before (ASKED_KEYS remembered); the long tail's searches,
 * asked once, no longer push out the ones asked again.
 */
export class KeptPerCopy<Copy extends object, Value> {
  private readonly byCopy = new WeakMap<
    Copy,
    { values: Map<string, Value>; bytes: number; max: number; asked?: Set<string> }
  >()

  constructor(
    /** What the values are, for tests and measurements. */
    readonly name: string,
    private readonly maxBytes: number,
    private readonly bytesOf: (value: Value) => number,
    private readonly listingsOf?: (copy: Copy) => number,
    private readonly askedTwice = false,
  ) {
    keptOfThread.push(this as unknown as KeptPerCopy<object, unknown>)
  }

  /** The bytes kept at most for a copy of `listings` listings. */
  maxFor(listings: number): number {
    if (!this.listingsOf) return this.maxBytes
    // A small copy's share can't hold its values' objects: a few hundred listings would keep a search or two.
    const floor = Math.min(this.maxBytes, KEPT_AT_LEAST_BYTES)
    return Math.max(floor, this.maxBytes * Math.min(1, listings / KEPT_FULL_AT_LISTINGS))
  }

  /** What is kept for `copy`: how many values, their bytes as counted, and the bound. */
  held(copy: Copy): { values: number; bytes: number; max: number } {
    const kept = this.byCopy.get(copy)
    return { values: kept?.values.size ?? 0, bytes: kept?.bytes ?? 0, max: kept?.max ?? 0 }
  }

  /**
   * What is kept for `key`, else `make`'s value, kept as `set` says. `make` is told whether it may be (a value over
   * the bound is not kept all the same): a map keeping from a second ask keeps nothing from a first, which can then
   * be made more cheaply.
   */
  get(copy: Copy, key: string, make: (keeping: boolean) => Value): Value {
    const kept = this.keptFor(copy)
    if (kept.values.has(key)) return kept.values.get(key) as Value
    return this.set(copy, key, make(!kept.asked || kept.asked.has(key)))
  }

  /** Keeps `value` for `key` in place of what was kept for it (`askedTwice`: only once `key` was asked before). */
  set(copy: Copy, key: string, value: Value): Value {
    const kept = this.keptFor(copy)
    const was = kept.values.get(key)
    if (was !== undefined) {
      kept.values.delete(key)
      kept.bytes -= this.entryBytes(key, was)
    } else if (kept.asked && !kept.asked.delete(key)) {
      kept.asked.add(key)
      // A Set keeps its keys in the order they were added: the oldest first.
      if (kept.asked.size > ASKED_KEYS) kept.asked.delete(kept.asked.values().next().value as string)
      return value
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
      kept = {
        values: new Map(),
        bytes: 0,
        max: this.maxFor(this.listingsOf?.(copy) ?? 0),
        // Only a map keeping values from a second ask remembers the keys asked once.
        ...(this.askedTwice && { asked: new Set<string>() }),
      }
      this.byCopy.set(copy, kept)
    }
    return kept
  }
}

/** The thread's marks (withMarks): all 0 between calls. */
let marks = new Uint8Array(0)
let marking = false

/**
 * A mark per row, all 0, for one synchronous call: `use` must reset every mark it set to 0. One array per
 * thread, reused: a new one per search (1 MB at 1,000,000 listings) kept the collector busy.
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
