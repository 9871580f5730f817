import { eq, sql } from 'drizzle-orm'
import type { Database, Db } from '#server/db/client'
import { listenFor } from '#server/db/listening'
import { publicDataVersion } from '#server/db/schema'
import { KeptJson } from './kept-json'

/**
 * A short-lived cache of serialized public read responses (brands, advertised, category).
 * Each instance keeps its own, dropped by PublicDataWatch when the database says public data changed: at once in
 * the instance that made the change, within a poll (0.1 s) in every other.
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

  /** The answer serialized as JSON, kept with its compressed forms (KeptJson). */
  async get(key: string, load: () => Promise<unknown>): Promise<KeptJson> {
    return this.remember(key, async () => new KeptJson(JSON.stringify(await load())))
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

type Log = { warn: (obj: object, msg: string) => void }

/**
 * Keeps a PublicCache in step with the database: `public_data_version` moves on with every commit that changes what
 * visitors are shown (triggers, migration 0032), and the cache is dropped whenever the version read is newer than
 * the one it last saw. The version's trigger notifies each new version as it commits (migration 0056), when `listen`
 * is given; the instance also reads it every `pollMs` (so a change made through another instance, a job or by hand is
 * seen within that while no notification comes), once a second while they come, and after each of its own changes
 * before answering (`check`), so whoever made a change never reads the list from before it. Nothing calls it by hand:
 * there is nothing to forget.
 */
export class PublicDataWatch {
  private seen: bigint | undefined
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  private notifications: ReturnType<typeof listenFor> | undefined

  constructor(
    private readonly db: Db,
    private readonly cache: PublicCache,
    private readonly log: Log,
    private readonly pollMs = 100,
    private readonly listen?: Database['listen'],
  ) {}

  /** A version read or heard: newer than the last seen drops the cache (the first only learns it). */
  private saw(version: bigint): void {
    if (this.seen === undefined || version > this.seen) {
      if (this.seen !== undefined) this.cache.clear()
      this.seen = version
    }
  }

  /** Reads the version once; a newer one than last seen drops the cache. */
  async check(): Promise<void> {
    const [row] = await this.db
      .select({ version: sql<string>`${publicDataVersion.version}::text` })
      .from(publicDataVersion)
      .where(eq(publicDataVersion.id, true))
    if (row) this.saw(BigInt(row.version))
  }

  /** Learns the version, then keeps reading it; a failed read is logged and the cache dropped (it cannot tell). */
  async start(): Promise<void> {
    await this.check()
    if (this.listen) {
      this.notifications = listenFor(
        this.listen,
        'public_data',
        (payload) => {
          if (/^\d+$/.test(payload)) this.saw(BigInt(payload))
        },
        (err, lost) =>
          this.log.warn(
            { err },
            lost
              ? 'The public cache lost its notifications of changes; listening again (reading the version meanwhile)'
              : 'The public cache could not listen for changes; reading the version only',
          ),
      )
    }
    const tick = async () => {
      if (this.stopped) return
      try {
        await this.check()
      } catch (err) {
        this.cache.clear()
        this.log.warn({ err }, 'Could not read the public data version; the public cache is dropped')
      }
      const every = this.notifications?.pace(this.pollMs) ?? this.pollMs
      if (!this.stopped) this.timer = setTimeout(tick, every)
    }
    this.timer = setTimeout(tick, this.pollMs)
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.notifications?.stop()
  }
}
