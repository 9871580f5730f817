/**
 * A short-lived cache of serialized public read responses (brands, advertised, category).
 * Each instance keeps its own; a write in this instance clears it at once, and other instances
 * see the write within the TTL. Nothing here is needed by another instance.
 */
export class PublicCache {
  private readonly entries = new Map<string, { body: string; expires: number }>()

  constructor(private readonly ttlMs: number) {}

  async get(key: string, load: () => Promise<unknown>): Promise<string> {
    const now = Date.now()
    const hit = this.entries.get(key)
    if (hit && hit.expires > now) return hit.body
    const body = JSON.stringify(await load())
    if (this.ttlMs > 0) {
      if (this.entries.size > 1000) this.entries.clear()
      this.entries.set(key, { body, expires: now + this.ttlMs })
    }
    return body
  }

  clear(): void {
    this.entries.clear()
  }
}
