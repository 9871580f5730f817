import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PublicCache } from './public-cache'

/** A loader that counts its calls and returns a different value each time. */
function counter() {
  let calls = 0
  return {
    load: async () => ({ call: ++calls }),
    get calls() {
      return calls
    },
  }
}

describe('PublicCache', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('returns the serialized body and keeps it for the TTL', async () => {
    const cache = new PublicCache(1000)
    const c = counter()
    expect((await cache.get('brands', c.load)).text).toBe('{"call":1}')
    vi.advanceTimersByTime(999)
    expect((await cache.get('brands', c.load)).text).toBe('{"call":1}')
    expect(c.calls).toBe(1)
  })

  it('loads again once the TTL has passed', async () => {
    const cache = new PublicCache(1000)
    const c = counter()
    await cache.get('brands', c.load)
    vi.advanceTimersByTime(1000)
    expect((await cache.get('brands', c.load)).text).toBe('{"call":2}')
    expect(c.calls).toBe(2)
  })

  it('keeps each key apart', async () => {
    const cache = new PublicCache(1000)
    expect((await cache.get('a', async () => 'A')).text).toBe('"A"')
    expect((await cache.get('b', async () => 'B')).text).toBe('"B"')
    expect((await cache.get('a', async () => 'other')).text).toBe('"A"')
  })

  it('forgets everything on clear', async () => {
    const cache = new PublicCache(60_000)
    const c = counter()
    await cache.get('brands', c.load)
    cache.clear()
    expect((await cache.get('brands', c.load)).text).toBe('{"call":2}')
  })

  it('does not keep what a load read before a clear that happened while it ran', async () => {
    const cache = new PublicCache(60_000)
    let release: (value: string) => void = () => {}
    const slow = cache.get('advertised', () => new Promise<string>((resolve) => (release = resolve)))
    cache.clear()
    release('before the write')
    expect((await slow).text).toBe('"before the write"')
    expect((await cache.get('advertised', async () => 'after the write')).text).toBe('"after the write"')
  })

  it('caches nothing when the TTL is 0', async () => {
    const cache = new PublicCache(0)
    const c = counter()
    await cache.get('brands', c.load)
    await cache.get('brands', c.load)
    expect(c.calls).toBe(2)
  })

  it('does not cache a failed load', async () => {
    const cache = new PublicCache(1000)
    await expect(
      cache.get('category:x', async () => {
        throw new Error('Brand not found')
      }),
    ).rejects.toThrow('Brand not found')
    expect((await cache.get('category:x', async () => [])).text).toBe('[]')
  })

  it('shares one load between requests that miss together', async () => {
    const cache = new PublicCache(1000)
    let calls = 0
    let release: (value: string) => void = () => {}
    const load = () => {
      calls += 1
      return new Promise<string>((resolve) => (release = resolve))
    }
    const waiting = [
      cache.remember('page:/', load),
      cache.remember('page:/', load),
      cache.remember('page:/', load),
    ]
    release('rendered once')
    expect(await Promise.all(waiting)).toEqual(['rendered once', 'rendered once', 'rendered once'])
    expect(calls).toBe(1)
  })

  it('answers a just-expired entry while its one refresh runs, and the refreshed one after', async () => {
    const cache = new PublicCache(1000)
    await cache.remember('page:/', async () => 'first')
    vi.advanceTimersByTime(1000)
    let release: (value: string) => void = () => {}
    const refreshing = cache.remember('page:/', () => new Promise<string>((resolve) => (release = resolve)))
    expect(await cache.remember('page:/', async () => 'not asked')).toBe('first')
    release('second')
    expect(await refreshing).toBe('second')
    expect(await cache.remember('page:/', async () => 'not asked')).toBe('second')
    // Long expired (past one more TTL), a request waits for the refresh instead.
    vi.advanceTimersByTime(2500)
    const late = cache.remember('page:/', () => new Promise<string>((resolve) => (release = resolve)))
    const waiting = cache.remember('page:/', async () => 'not asked')
    release('third')
    expect(await late).toBe('third')
    expect(await waiting).toBe('third')
  })

  it('stays bounded when many keys are asked for', async () => {
    const cache = new PublicCache(60_000)
    for (let i = 0; i < 5000; i++) await cache.get(`category:${i}`, async () => i)
    const size = (cache as unknown as { entries: Map<string, unknown> }).entries.size
    expect(size).toBeLessThanOrEqual(1001)
  })
})
