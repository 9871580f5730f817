import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BindingsProvider } from '../../lib/bindings'
import { routerBindings } from '../../test/render'
import { SLIDES } from './slides'
import { AUTO_ADVANCE_MS, Slideshow } from './slideshow'

const scrollNext = vi.fn()
const scrollPrev = vi.fn()

// The carousel engine needs real layout, which happy-dom has not; a stand-in records the calls.
vi.mock('embla-carousel', () => ({
  default: () => ({
    scrollNext,
    scrollPrev,
    scrollTo: vi.fn(),
    selectedScrollSnap: () => 0,
    on() {
      return this
    },
    off() {
      return this
    },
    reInit: vi.fn(),
    destroy: vi.fn(),
  }),
}))

function mockReducedMotion(matches: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches,
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  )
}

async function renderSlideshow() {
  render(
    <BindingsProvider bindings={routerBindings}>
      <MemoryRouter>
        <Slideshow slides={SLIDES} />
      </MemoryRouter>
    </BindingsProvider>,
  )
  // Let the lazily imported engine attach.
  await act(async () => {
    await vi.dynamicImportSettled()
  })
  return screen.getByRole('region', { name: 'Featured laptops' })
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  scrollNext.mockClear()
  scrollPrev.mockClear()
  mockReducedMotion(false)
})

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('Slideshow', () => {
  it('is a labelled carousel with one group per slide and a call to action on each', async () => {
    const region = await renderSlideshow()
    expect(region.getAttribute('aria-roledescription')).toBe('carousel')
    expect(screen.getAllByRole('group', { hidden: true })).toHaveLength(SLIDES.length)
    expect(screen.getByRole('link', { name: 'Browse all laptops' }).getAttribute('href')).toBe('/productcard')
  })

  it("renders only the first slide's picture until the engine that reaches the others is attached", () => {
    const html = renderToString(
      <BindingsProvider bindings={routerBindings}>
        <MemoryRouter>
          <Slideshow slides={SLIDES} />
        </MemoryRouter>
      </BindingsProvider>,
    )
    const pictures = html.match(/<img [^>]*>/g) ?? []
    expect(pictures).toHaveLength(1)
    expect(pictures[0]).toContain(`src="${SLIDES[0]?.image}"`)
    expect(pictures[0]).toContain('fetchPriority="high"')
  })

  it('gives every slide its picture once the engine is attached', async () => {
    const region = await renderSlideshow()
    const sources = Array.from(region.querySelectorAll('img')).map((img) => img.getAttribute('src'))
    expect(sources).toEqual(SLIDES.map((slide) => slide.image))
  })

  it('advances on its own until the pause button is pressed', async () => {
    await renderSlideshow()
    act(() => vi.advanceTimersByTime(AUTO_ADVANCE_MS))
    expect(scrollNext).toHaveBeenCalledTimes(1)

    fireEvent.click(screen.getByRole('button', { name: 'Pause slideshow' }))
    expect(screen.getByRole('button', { name: 'Play slideshow' })).toBeTruthy()
    act(() => vi.advanceTimersByTime(AUTO_ADVANCE_MS * 3))
    expect(scrollNext).toHaveBeenCalledTimes(1)

    fireEvent.click(screen.getByRole('button', { name: 'Play slideshow' }))
    expect(screen.getByRole('button', { name: 'Pause slideshow' })).toBeTruthy()
    act(() => vi.advanceTimersByTime(AUTO_ADVANCE_MS))
    expect(scrollNext).toHaveBeenCalledTimes(2)
  })

  it('announces slide changes politely only while paused', async () => {
    await renderSlideshow()
    const live = () => document.querySelector('[aria-live]')?.getAttribute('aria-live')
    expect(live()).toBe('off')
    fireEvent.click(screen.getByRole('button', { name: 'Pause slideshow' }))
    expect(live()).toBe('polite')
  })

  it('holds still while hovered and moves with the arrow keys', async () => {
    const region = await renderSlideshow()
    fireEvent.mouseEnter(region)
    act(() => vi.advanceTimersByTime(AUTO_ADVANCE_MS * 2))
    expect(scrollNext).not.toHaveBeenCalled()

    fireEvent.keyDown(region, { key: 'ArrowRight' })
    fireEvent.keyDown(region, { key: 'ArrowLeft' })
    expect(scrollNext).toHaveBeenCalledTimes(1)
    expect(scrollPrev).toHaveBeenCalledTimes(1)
  })

  it('does not auto-advance when the visitor prefers reduced motion', async () => {
    mockReducedMotion(true)
    await renderSlideshow()
    expect(screen.getByRole('button', { name: 'Play slideshow' })).toBeTruthy()
    act(() => vi.advanceTimersByTime(AUTO_ADVANCE_MS * 3))
    expect(scrollNext).not.toHaveBeenCalled()
  })
})
