import { cleanup, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Column, DataTable } from './data-table'

type Row = { id: string; name: string; email: string }
const ROWS: Row[] = [
  { id: '1', name: 'Ada', email: 'ada@example.com' },
  { id: '2', name: 'Grace', email: 'grace@example.com' },
]
const COLUMNS: Column<Row>[] = [
  { key: 'name', header: 'Name', card: 'title', cell: (r) => r.name },
  { key: 'email', header: 'Email', cell: (r) => r.email },
  {
    key: 'actions',
    header: 'Actions',
    card: 'actions',
    cell: (r) => <button type="button">Delete {r.name}</button>,
  },
]

function screenWidth(wide: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: wide,
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }))
}

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('DataTable', () => {
  it('is a table with a row header per record on wide screens', () => {
    screenWidth(true)
    render(<DataTable caption="People" rows={ROWS} rowKey={(r) => r.id} columns={COLUMNS} rowTestId="row" />)
    const table = screen.getByRole('table', { name: 'People' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Actions'])
    const [ada] = screen.getAllByTestId('row')
    expect(within(ada as HTMLElement).getByRole('rowheader').textContent).toBe('Ada')
    expect(within(ada as HTMLElement).getAllByRole('cell')[0]?.textContent).toBe('ada@example.com')
  })

  it('is a list of cards with labelled fields on phones', () => {
    screenWidth(false)
    render(<DataTable caption="People" rows={ROWS} rowKey={(r) => r.id} columns={COLUMNS} rowTestId="row" />)
    expect(screen.queryByRole('table')).toBeNull()
    const list = screen.getByRole('list', { name: 'People' })
    const cards = within(list).getAllByTestId('row')
    expect(cards).toHaveLength(2)
    const grace = within(cards[1] as HTMLElement)
    expect(grace.getByText('Grace')).toBeTruthy()
    expect(grace.getByText('Email:')).toBeTruthy()
    expect(grace.getByText('grace@example.com')).toBeTruthy()
    expect(grace.getByRole('button', { name: 'Delete Grace' })).toBeTruthy()
  })

  it('shows skeleton rows while the rows load', () => {
    screenWidth(true)
    render(<DataTable caption="People" rows={undefined} rowKey={(r: Row) => r.id} columns={COLUMNS} />)
    expect(screen.getAllByTestId('skeleton').length).toBeGreaterThan(0)
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true')
  })
})
