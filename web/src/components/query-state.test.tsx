import fs from 'node:fs'
import path from 'node:path'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../lib/api-client'
import { LoadFailed, QueryState } from './query-state'

afterEach(cleanup)

const query = <T,>(over: Partial<Parameters<typeof QueryState<T>>[0]['query']>) => ({
  data: undefined,
  isPending: false,
  isError: false,
  error: null,
  refetch: vi.fn(),
  ...over,
})

describe('QueryState', () => {
  const states = (q: ReturnType<typeof query<string[]>>) =>
    render(
      <QueryState
        query={q}
        errorTitle="Could not load the reports"
        loading={<p>Loading…</p>}
        empty={<p>None</p>}
      >
        {(items) => <p>{items.join(', ')}</p>}
      </QueryState>,
    )

  it('shows loading, then the data, or the empty state for an empty list', () => {
    states(query({ isPending: true }))
    expect(screen.getByText('Loading…')).toBeTruthy()
    cleanup()
    states(query({ data: ['a', 'b'] }))
    expect(screen.getByText('a, b')).toBeTruthy()
    cleanup()
    states(query({ data: [] }))
    expect(screen.getByText('None')).toBeTruthy()
  })

  it('shows a failure with the server message and a Try again that asks again', () => {
    const q = query<string[]>({ isError: true, error: new ApiError(500, 'INTERNAL', 'The database is away') })
    states(q)
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Could not load the reports')
    expect(alert.textContent).toContain('The database is away')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(q.refetch).toHaveBeenCalledOnce()
  })
})

describe('LoadFailed', () => {
  it('puts extra actions before Try again, and has no button when there is nothing to retry', () => {
    render(
      <LoadFailed
        title="Nope"
        error={new Error('x')}
        onRetry={() => {}}
        actions={<a href="/s">Open Settings</a>}
      />,
    )
    const [first, second] = screen.getAllByRole('link').concat(screen.getAllByRole('button'))
    expect(first?.textContent).toBe('Open Settings')
    expect(second?.textContent).toBe('Try again')
    cleanup()
    render(<LoadFailed title="Nope" error={new Error('x')} />)
    expect(screen.queryByRole('button')).toBeNull()
    // Not the server's error: the calm general words, unless the caller gives its own.
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong. Please try again.')
  })
})

describe('one failed-load block for every page', () => {
  const root = path.resolve(import.meta.dirname, '..')
  /** Every component file of the web app but this one and the tests. */
  const sources = () =>
    fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      // (boundary-probe files come and go while feature-boundaries.test.ts runs beside this one)
      .filter(
        (f) =>
          /\.tsx$/.test(f) &&
          !/\.test\.tsx$/.test(f) &&
          !f.endsWith('query-state.tsx') &&
          !path.basename(f).startsWith('boundary-probe-'),
      )
      .map((f) => ({ file: f, text: fs.readFileSync(path.join(root, f), 'utf8') }))

  it('leaves "Try again" buttons to LoadFailed: no page builds its own', () => {
    const offenders = sources().filter(({ text }) => />\s*Try again\s*</.test(text))
    expect(offenders.map((s) => s.file)).toEqual([])
  })

  it("draws no query's failure by hand (`q.isError ? (<p…` or `q.error ? (<Alert…`): QueryState or LoadFailed does", () => {
    const handDrawn = /\.(isError|error) \? \(\s*<(p|Alert|div)\b/
    expect(handDrawn.test('{q.isError ? (\n  <p className="text-red-700">{q.error.message}</p>')).toBe(true)
    expect(handDrawn.test('{q.error ? (\n  <Alert tone="error" title="Nope">')).toBe(true)
    const offenders = sources().filter(({ text }) => handDrawn.test(text))
    expect(offenders.map((s) => s.file)).toEqual([])
  })
})
