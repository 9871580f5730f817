import { randomUUID } from 'node:crypto'
import { Redis } from 'ioredis'

/**
 * A short-lived cache of serialized public read responses (brands, advertised, category).
 * Each instance keeps its own. A write that changes public data clears it in this instance at once and,
 * with Redis configured, in every other instance within the time a message takes to go round; without
 * Redis another instance sees the write within the TTL.
 */
export class PublicCache {
  private readonly entries = new Map<string, { value: unknown; expires: number }>()
  private readonly loading = new Map<string, { value: Promise<unknown>; generation: number }>()
  /** Bumped on every clear: a load that started before a clear must not store what it read. */
  private generation = 0

  constructor(private readonly ttlMs: number) {}

  get isEnabled(): boolean {
    return this.ttlMs > 0
  }

  /** The answer serialized as JSON. */
  async get(key: string, load: () => Promise<unknown>): Promise<string> {
    return this.remember(key, async () => JSON.stringify(await load()))
  }

  /** Any value as it is (a rendered page, say); undefined is never kept. */
  async remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    const now = Date.now()
    const hit = this.entries.get(key)
    if (hit && hit.expires > now) return hit.value as T
    if (this.ttlMs <= 0) return load()
    // Requests that miss together share one load: when an entry expires under load, one render or query runs,
    // not one per waiting request.
    const pending = this.loading.get(key)
    if (pending && pending.generation === this.generation) {
      // An entry that has just expired (within one more TTL) is still answered while its refresh runs; a write
      // clears entries outright, so this never outlives a change, only the clock.
      if (hit && hit.expires + this.ttlMs > now) return hit.value as T
      return pending.value as Promise<T>
    }
    const startedIn = this.generation
    const value = load()
    this.loading.set(key, { value, generation: startedIn })
    try {
      const loaded = await value
      if (loaded !== undefined && startedIn === this.generation) {
        if (this.entries.size > 1000) this.entries.clear()
        this.entries.set(key, { value: loaded, expires: now + this.ttlMs })
      }
      return loaded
    } finally {
      if (this.loading.get(key)?.value === value) this.loading.delete(key)
    }
  }

  clear(): void {
    this.generation += 1
    this.entries.clear()
  }
}

/**
 * Who hears that public data changed, per database handle. Services call `publicDataChanged(db)` after a
 * write that changes what visitors see has committed; the app registers its cache (and the message to the
 * other instances) with `onPublicDataChange`. A service called with a transaction handle reports nothing:
 * the caller that owns the transaction reports after it commits.
 */
const listeners = new WeakMap<object, Set<() => void>>()

export function onPublicDataChange(db: object, listener: () => void): () => void {
  let set = listeners.get(db)
  if (!set) {
    set = new Set()
    listeners.set(db, set)
  }
  set.add(listener)
  return () => set.delete(listener)
}

export function publicDataChanged(db: object): void {
  for (const listener of listeners.get(db) ?? []) listener()
}

/**
 * Carries "public data changed" between instances over Redis pub/sub. A message lost while the
 * subscription was down cannot be told apart from one never sent, so a reconnect clears the cache too.
 */
export class CacheBus {
  private readonly id = randomUUID()
  private readonly subscriber: Redis
  private readonly publisher: Redis
  private subscribedOnce = false

  private constructor(
    url: string,
    private readonly channel: string,
    private readonly cache: PublicCache,
  ) {
    this.subscriber = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true })
    this.publisher = new Redis(url, { maxRetriesPerRequest: 2, lazyConnect: true })
    this.subscriber.on('message', (_channel, from: string) => {
      if (from !== this.id) this.cache.clear()
    })
    this.subscriber.on('ready', () => {
      if (this.subscribedOnce) this.cache.clear()
      this.subscribedOnce = true
    })
    // ioredis reconnects by itself; an error event without a listener would crash the process.
    this.subscriber.on('error', () => {})
    this.publisher.on('error', () => {})
  }

  static async connect(url: string, channel: string, cache: PublicCache): Promise<CacheBus> {
    const bus = new CacheBus(url, channel, cache)
    await bus.subscriber.connect()
    await bus.subscriber.subscribe(channel)
    await bus.publisher.connect()
    return bus
  }

  /** Tells the other instances; a failed publish is logged by the caller and leaves them on their TTL. */
  async publish(): Promise<void> {
    await this.publisher.publish(this.channel, this.id)
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.subscriber.quit(), this.publisher.quit()])
  }
}
