import { useId } from 'react'
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'

// Charts for the dashboards (recharts, in the dashboard's own chunk). Every chart is a figure whose
// drawing is hidden from screen readers and replaced by a one-line summary, with the figures themselves in
// a table under "Show the figures" for everyone.

export type Series<K extends string> = { key: K; label: string; color: string }

/** Teal (the accent), then colours that stay apart for the common colour-vision deficiencies. */
export const COLORS = ['#0f766e', '#b45309', '#6d28d9', '#be123c', '#0369a1']

const dayLabel = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
export const formatDay = (day: string) => dayLabel.format(new Date(`${day}T00:00:00Z`))

function summarize<K extends string>(rows: ({ day: string } & Record<K, number>)[], series: Series<K>[]) {
  return series
    .map((s) => {
      const total = rows.reduce((sum, r) => sum + r[s.key], 0)
      const best = rows.reduce<({ day: string } & Record<K, number>) | undefined>(
        (top, r) => (top === undefined || r[s.key] > top[s.key] ? r : top),
        undefined,
      )
      return total === 0 || !best
        ? `${s.label}: none`
        : `${s.label}: ${total} in all, most on ${formatDay(best.day)} (${best[s.key]})`
    })
    .join('; ')
}

function FiguresTable({
  caption,
  head,
  rows,
}: {
  caption: string
  head: string[]
  rows: (string | number)[][]
}) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer font-medium text-accent">Show the figures</summary>
      {/* Scrolls when long, so it takes keyboard focus (arrow keys scroll it). */}
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
        tabIndex={0}
        aria-label={caption}
        className="mt-2 max-h-72 overflow-auto rounded-lg border border-slate-200"
      >
        <table className="w-full text-left tabular-nums">
          <caption className="sr-only">{caption}</caption>
          <thead className="sticky top-0 bg-slate-50 text-slate-600">
            <tr>
              {head.map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-medium">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={String(row[0])}>
                {row.map((cell, i) =>
                  i === 0 ? (
                    <th key={head[i]} scope="row" className="px-3 py-1.5 font-normal text-slate-700">
                      {cell}
                    </th>
                  ) : (
                    <td key={head[i]} className="px-3 py-1.5 text-slate-900">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </details>
  )
}

export function ChartCard({
  title,
  description,
  children,
}: {
  title: string
  description?: string
  children: React.ReactNode
}) {
  const headingId = useId()
  return (
    <section
      aria-labelledby={headingId}
      data-testid="chart"
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <h2 id={headingId} className="font-semibold text-base text-slate-900">
        {title}
      </h2>
      {description ? <p className="mt-0.5 text-slate-600 text-sm">{description}</p> : null}
      {children}
    </section>
  )
}

/**
 * Whole-number ticks from 0 to at least `max`, at most five of them: a count axis never shows 0.5, and a chart
 * of small counts (0, 1, 2) gets a tick per count rather than recharts' own spread.
 */
export function countTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max))
  const step = Math.max(1, Math.ceil(top / 4))
  const ticks: number[] = []
  for (let tick = 0; tick < top + step; tick += step) ticks.push(tick)
  return ticks
}

/**
 * Counts per day for the last 30 days, as bars: stacked when there are several series. Counts are small
 * whole numbers, so smooth lines would overlap and suggest values between the days that never happened.
 */
export function DailyChart<K extends string>({
  title,
  description,
  rows,
  series,
}: {
  title: string
  description?: string
  rows: ({ day: string } & Record<K, number>)[]
  series: Series<K>[]
}) {
  const summary = `${title}, last 30 days. ${summarize(rows, series)}.`
  const data = rows.map((r) => ({ ...r, label: formatDay(r.day) }))
  // Stacked: the axis reaches the largest day's total.
  const ticks = countTicks(Math.max(0, ...rows.map((r) => series.reduce((sum, s) => sum + r[s.key], 0))))
  return (
    <ChartCard title={title} description={description}>
      <p className="sr-only">{summary}</p>
      <div className="mt-3 h-56" aria-hidden="true" data-testid="chart-drawing">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            accessibilityLayer={false}
            data={data}
            margin={{ top: 4, right: 8, left: 0, bottom: 0 }}
            barCategoryGap="20%"
          >
            <CartesianGrid stroke="#e2e8f0" vertical={false} />
            <XAxis
              dataKey="label"
              tick={{ fontSize: 12, fill: '#475569' }}
              interval="preserveStartEnd"
              minTickGap={24}
            />
            <YAxis
              allowDecimals={false}
              domain={[0, ticks[ticks.length - 1] as number]}
              ticks={ticks}
              tick={{ fontSize: 12, fill: '#475569' }}
              width={36}
            />
            <Tooltip />
            {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
            {/* Stacked, one bar a day: three series side by side in a 30-day chart half a page wide were
                hairlines of a pixel or two. */}
            {series.map((s, i) => (
              <Bar
                key={s.key}
                dataKey={s.key}
                name={s.label}
                fill={s.color}
                stackId="day"
                radius={i === series.length - 1 ? [2, 2, 0, 0] : 0}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <FiguresTable
        caption={`${title} per day`}
        head={['Day', ...series.map((s) => s.label)]}
        rows={rows.map((r) => [formatDay(r.day), ...series.map((s) => r[s.key])])}
      />
    </ChartCard>
  )
}

/** Categories side by side as horizontal bars (a funnel's steps, orders by stage). */
export function CategoryChart({
  title,
  description,
  items,
  valueLabel,
  summary,
}: {
  title: string
  description?: string
  items: { label: string; value: number }[]
  valueLabel: string
  summary: string
}) {
  return (
    <ChartCard title={title} description={description}>
      <p className="sr-only">{summary}</p>
      <div
        className="mt-3"
        style={{ height: 48 + items.length * 40 }}
        aria-hidden="true"
        data-testid="chart-drawing"
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            accessibilityLayer={false}
            data={items}
            layout="vertical"
            margin={{ top: 4, right: 24, left: 8, bottom: 0 }}
          >
            <CartesianGrid stroke="#e2e8f0" horizontal={false} />
            <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12, fill: '#475569' }} />
            <YAxis type="category" dataKey="label" width={130} tick={{ fontSize: 12, fill: '#334155' }} />
            <Tooltip />
            <Bar
              dataKey="value"
              name={valueLabel}
              fill={COLORS[0]}
              radius={[0, 3, 3, 0]}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <FiguresTable
        caption={`${title}: the figures`}
        head={['', valueLabel]}
        rows={items.map((i) => [i.label, i.value])}
      />
    </ChartCard>
  )
}
