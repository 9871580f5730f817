import { cleanup, render, waitFor } from '@testing-library/react'
import { cloneElement, type ReactElement } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { COLORS, countTicks, DailyChart } from './charts'

// Nothing is laid out in the test DOM, so the chart is drawn at a fixed size instead of its container's.
const drawn = vi.hoisted(() => ({ width: 600 }))
vi.mock('recharts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('recharts')>()),
  ResponsiveContainer: ({ children }: { children: ReactElement<{ width?: number; height?: number }> }) =>
    cloneElement(children, { width: drawn.width, height: 224 }),
}))

afterEach(cleanup)

// The admin's "Listings, bookings and payments" on a quiet month: small whole counts, often the same.
const rows = Array.from({ length: 30 }, (_, i) => ({
  day: `2026-11-${String(i + 1).padStart(2, '0')}`,
  listings: i % 3 === 0 ? 1 : 0,
  bookings: i % 5 === 0 ? 1 : 0,
  payments: i === 10 ? 2 : 0,
}))
const series = [
  { key: 'listings' as const, label: 'New listings', color: COLORS[0] as string },
  { key: 'bookings' as const, label: 'Bookings', color: COLORS[1] as string },
  { key: 'payments' as const, label: 'Payments', color: COLORS[2] as string },
]

describe('countTicks', () => {
  it('gives one whole-number tick per count for small counts, and at most five ticks for large ones', () => {
    expect(countTicks(0)).toEqual([0, 1])
    expect(countTicks(2)).toEqual([0, 1, 2])
    expect(countTicks(4)).toEqual([0, 1, 2, 3, 4])
    expect(countTicks(9)).toEqual([0, 3, 6, 9])
    expect(countTicks(37)).toEqual([0, 10, 20, 30, 40])
    for (const max of [0, 1, 3, 7, 12, 99, 1234]) {
      const ticks = countTicks(max)
      expect(ticks.every(Number.isInteger)).toBe(true)
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max)
      expect(ticks.length).toBeLessThanOrEqual(6)
    }
  })
})

describe('DailyChart', () => {
  it('draws counts of several series as stacked bars, never as curves, on a whole-number axis up to a day’s total', async () => {
    const { container } = render(
      <DailyChart title="Listings, bookings and payments" rows={rows} series={series} />,
    )
    const drawing = container.querySelector('[data-testid="chart-drawing"]') as HTMLElement
    // recharts draws its axes and bars a moment after the chart itself.
    const yTicks = () =>
      [...drawing.querySelectorAll('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')].map(
        (t) => t.textContent,
      )
    await waitFor(() => expect(yTicks()).toEqual(['0', '1', '2', '3']))
    // One group of bars per series, and no line or curve anywhere.
    expect(drawing.querySelectorAll('.recharts-bar')).toHaveLength(3)
    expect(drawing.querySelectorAll('.recharts-bar-rectangle').length).toBeGreaterThan(0)
    expect(drawing.querySelectorAll('.recharts-line, .recharts-line-curve, .recharts-curve')).toHaveLength(0)
  })
})

describe('DailyChart bars', () => {
  it('are wide enough to see in a half-width card at 1366 px (about 290 px for 30 days of 3 series)', async () => {
    drawn.width = 290
    try {
      const { container } = render(
        <DailyChart title="Listings, bookings and payments" rows={rows} series={series} />,
      )
      const drawing = container.querySelector('[data-testid="chart-drawing"]') as HTMLElement
      const widths = () =>
        [...drawing.querySelectorAll('.recharts-bar-rectangle path')].map((r) =>
          Number(r.getAttribute('width')),
        )
      await waitFor(() => expect(widths().length).toBeGreaterThan(0))
      expect(Math.min(...widths())).toBeGreaterThanOrEqual(5)
    } finally {
      drawn.width = 600
    }
  })
})
