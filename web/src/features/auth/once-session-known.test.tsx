import { act, renderHook } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { useOnceSessionKnown } from './use-session'

describe('useOnceSessionKnown', () => {
  it('keeps a click made while the session is read, and handles it once, with what is known then', () => {
    const seen: string[] = []
    const { result, rerender } = renderHook(
      ({ isLoading, user }: { isLoading: boolean; user: string }) =>
        useOnceSessionKnown(isLoading, () => seen.push(user)),
      { initialProps: { isLoading: true, user: 'nobody yet' } },
    )
    act(() => result.current())
    act(() => result.current())
    expect(seen).toEqual([])
    rerender({ isLoading: false, user: 'Rita' })
    expect(seen).toEqual(['Rita'])
    rerender({ isLoading: false, user: 'Rita' })
    expect(seen).toEqual(['Rita'])
  })

  it('handles a click at once when the session is known', () => {
    const handler = vi.fn()
    const { result } = renderHook(() => useOnceSessionKnown(false, handler))
    act(() => result.current())
    expect(handler).toHaveBeenCalledTimes(1)
  })
})
