import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LazyDialog } from './lazy-dialog'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>
}

describe('LazyDialog', () => {
  it('shows the dialog once its code has loaded', async () => {
    render(
      <LazyDialog
        load={() => Promise.resolve({ default: Greeting })}
        props={{ name: 'Ayesha' }}
        what="The greeting"
        onClose={vi.fn()}
      />,
    )
    expect(await screen.findByText('Hello Ayesha')).toBeTruthy()
  })

  it('says so when the code fails to load, and Try again loads it again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const load = vi
      .fn<() => Promise<{ default: typeof Greeting }>>()
      .mockRejectedValueOnce(
        new TypeError('Failed to fetch dynamically imported module: /assets/greeting.js'),
      )
      .mockResolvedValue({ default: Greeting })
    const onClose = vi.fn()
    render(<LazyDialog load={load} props={{ name: 'Ayesha' }} what="The greeting" onClose={onClose} />)

    const failed = await screen.findByRole('dialog', { name: 'The greeting could not be loaded' })
    expect(failed.textContent).toContain('Check your connection, then try again.')
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))

    expect(await screen.findByText('Hello Ayesha')).toBeTruthy()
    expect(screen.queryByRole('dialog', { name: 'The greeting could not be loaded' })).toBeNull()
    expect(load).toHaveBeenCalledTimes(2)
    expect(onClose).not.toHaveBeenCalled()
  })

  it('Close closes it when the code cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const onClose = vi.fn()
    render(
      <LazyDialog
        load={() =>
          Promise.reject<{ default: typeof Greeting }>(
            new TypeError('Failed to fetch dynamically imported module'),
          )
        }
        props={{ name: 'Ayesha' }}
        what="The greeting"
        onClose={onClose}
      />,
    )
    await screen.findByRole('dialog', { name: 'The greeting could not be loaded' })
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onClose).toHaveBeenCalledOnce()
  })
})
