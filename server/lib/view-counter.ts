import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Redis } from 'ioredis'
import { isbot } from 'isbot'
import type { Db } from '#server/db/client'
import type { CounterStore } from '#server/lib/rate-limit'
import { redisFrom } from '#server/lib/redis'

// Page views of listings, counted cheaply: one row per listing per day (product_views), a visitor counted
// once a day per listing, known bots ignored, and the counts written in one statement every few seconds
// rather than one per view. With Redis, "seen today" is shared by every instance; without it each
// instance remembers its own visitors (one instance is the embedded default).

const FLUSH_EVERY_MS = 5_000
const DAY_MS = 24 * 60 * 60 * 1000
/** Visitors remembered per day without Redis; past it a day's newest visitors count again (never unbounded). */
const MAX_SEEN_PER_DAY = 200_000

/**
 * `who`: something the visitor cannot vary per request for free: the account when signed in, else a first-party
 * cookie the server issued (with the address). The user agent only tells bots apart.
 */
export type Visitor = { address: string; userAgent: string | undefined; who?: string }

/** The UTC day of a moment, as `YYYY-MM-DD`. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10)

interface SeenStore {
  /** True the first time this key is offered on this day. */
  firstToday(day: string, key: string): Promise<boolean>
  close(): Promise<void>
}

class MemorySeen implements SeenStore {
  private day = ''
  private seen = new Set<string>()
  async firstToday(day: string, key: string) {
    if (day !== this.day) {
      this.day = day
      this.seen = new Set()
    }
    if (this.seen.has(key)) return false
    if (this.seen.size >= MAX_SEEN_PER_DAY) return true
    this.seen.add(key)
    return true
  }
  async close() {}
}

class RedisSeen implements SeenStore {
  private readonly redis: Redis
  private readonly owned: boolean
  constructor(
    from: Redis | string,
    private readonly prefix: string,
  ) {
    ;({ redis: this.redis, owned: this.owned } = redisFrom(from))
  }
  async firstToday(day: string, key: string) {
    // Kept a little past the day's end, so a view just before midnight is not counted twice.
    const set = await this.redis.set(`${this.prefix}${day}:${key}`, '1', 'PX', DAY_MS + 60_000, 'NX')
    return set === 'OK'
  }
  async close() {
    if (this.owned) await this.redis.quit()
  }
}

export class ViewCounter {
  private pending = new Map<string, number>()
  private readonly seen: SeenStore
  private readonly timer: NodeJS.Timeout
  private flushing: Promise<void> = Promise.resolve()
  private readonly perAddressPerDay: number
  private readonly counters: CounterStore | undefined

  constructor(
    private readonly db: Db,
    opts: {
      /** Redis (the app's client, or a URL to open one) for "seen today" shared by every instance. */
      redis?: Redis | string
      redisKeyPrefix?: string
      flushEveryMs?: number
      onError?: (err: unknown) => void
      /** Views counted per client address per listing per day, whoever the visitors are (0: no cap). */
      perAddressPerDay?: number
      counters?: CounterStore
    } = {},
  ) {
    this.perAddressPerDay = opts.perAddressPerDay ?? 0
    this.counters = opts.counters
    this.seen = opts.redis
      ? new RedisSeen(opts.redis, `${opts.redisKeyPrefix ?? 'lm:'}views:`)
      : new MemorySeen()
    this.timer = setInterval(() => {
      this.flush().catch((err) => opts.onError?.(err))
    }, opts.flushEveryMs ?? FLUSH_EVERY_MS)
    this.timer.unref()
  }

  /** Counts a view of a listing's page unless it is a bot's or this visitor's second today. */
  async record(productId: string, visitor: Visitor, now = new Date()): Promise<boolean> {
    if (!visitor.userAgent || isbot(visitor.userAgent)) return false
    const day = dayOf(now)
    const who = createHash('sha256')
      .update(visitor.who ?? `${visitor.address}\n${visitor.userAgent}`)
      .digest('base64url')
      .slice(0, 22)
    if (!(await this.seen.firstToday(day, `${productId}:${who}`))) return false
    // However many visitors one address claims to be (new cookies, new accounts), it adds a few views a day.
    if (this.counters && this.perAddressPerDay > 0) {
      const { count } = await this.counters.increment(`views:${day}:${productId}:${visitor.address}`, DAY_MS)
      if (count > this.perAddressPerDay) return false
    }
    const key = `${productId}|${day}`
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1)
    return true
  }

  /** Writes the counts gathered so far in one statement (ids of listings that do not exist are dropped). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write())
    return this.flushing
  }

  private async write() {
    if (this.pending.size === 0) return
    const batch = this.pending
    this.pending = new Map()
    const rows = [...batch].map(([key, views]) => {
      const [productId, day] = key.split('|') as [string, string]
      return sql`(${productId}::uuid, ${day}::date, ${views}::int)`
    })
    try {
      await this.db.execute(sql`
        insert into product_views (product_id, day, views)
        select v.product_id, v.day, v.views
        from (values ${sql.join(rows, sql`, `)}) as v(product_id, day, views)
        join products p on p.id = v.product_id
        on conflict (product_id, day) do update set views = product_views.views + excluded.views`)
    } catch (err) {
      // Put the counts back for the next try.
      for (const [key, views] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + views)
      throw err
    }
  }

  async close() {
    clearInterval(this.timer)
    await this.flush().catch(() => {})
    await this.seen.close()
  }
}
