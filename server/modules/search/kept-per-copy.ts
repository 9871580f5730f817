/** The copy's size at which a KeptPerCopy given `listingsOf` keeps its whole `maxSize`. */
export const KEPT_FULL_AT_LISTINGS = 1_000_000

/**
 * Values worked out from a copy that never changes (the counts' or the listings' facts), kept per copy and key: the
 * same searches are asked of one copy again and again, and their answers over it cannot change. The oldest go first
 * once the kept values' total size passes `maxSize`; a copy's values go with the copy.
 *
 * With `listingsOf`, values whose size grows with the copy's listings (a bit or a row number per listing matched)
 * keep `maxSize` at 1,000,000 listings and a share of it in proportion below: as many searches kept at any size. Kept
 * by bytes alone, a copy of 100,000 listings kept ten times as many searches in as much memory as one of 1,000,000,
 * and under searches asked once each that memory filled for the copy's whole life (the instance growing for minutes).
 */
export class KeptPerCopy<Copy extends object, Value> {
  private readonly byCopy = new WeakMap<Copy, { values: Map<string, Value>; size: number; max: number }>()

  constructor(
    private readonly maxSize: number,
    private readonly sizeOf: (value: Value) => number = () => 1,
    private readonly listingsOf?: (copy: Copy) => number,
  ) {}

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
      kept.size -= this.sizeOf(was)
    }
    const size = this.sizeOf(value)
    // A Map keeps its keys in the order they were added: the oldest first.
    for (const [oldest, old] of kept.values) {
      if (kept.size + size <= kept.max) break
      kept.values.delete(oldest)
      kept.size -= this.sizeOf(old)
    }
    kept.values.set(key, value)
    kept.size += size
    return value
  }

  private keptFor(copy: Copy) {
    let kept = this.byCopy.get(copy)
    if (!kept) {
      const share = this.listingsOf ? Math.min(1, this.listingsOf(copy) / KEPT_FULL_AT_LISTINGS) : 1
      kept = { values: new Map(), size: 0, max: this.maxSize * share }
      this.byCopy.set(copy, kept)
    }
    return kept
  }
}
