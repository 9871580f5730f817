import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// src/boot.ts runs as it loads, so each test sets the page up and then imports it afresh.
async function loadBoot() {
  vi.resetModules()
  await import('./boot')
}

const afterFrames = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 10)))

describe('the boot script of a rendered page', () => {
  beforeEach(() => {
    // The test only looks at the script element; the browser's download of it is not wanted here.
    const settings = (window as unknown as { happyDOM?: { settings: Record<string, unknown> } }).happyDOM
      ?.settings
    if (settings) {
      settings.disableJavaScriptFileLoading = true
      settings.handleDisabledFileLoadingAsSuccess = true
    }
    document.head.innerHTML =
      '<template id="page-code" data-entry="/assets/index-1.js"><link rel="modulepreload" href="/assets/app-1.js"></template>'
    document.body.innerHTML =
      '<a href="/blog" id="link">Blog</a><button type="button" id="report">Report</button>'
  })
  afterEach(() => {
    // Each test's boot listens on the one document: the page going live lets go of its clicks.
    document.body.innerHTML = ''
    document.dispatchEvent(new Event('page-live'))
    document.head.innerHTML = ''
    document.body.innerHTML = ''
  })

  it('starts the entry and the page’s preloads once the page is painted', async () => {
    await loadBoot()
    // Two frames and a task after the paint: polled, as a busy machine draws its frames late.
    const entry = await vi.waitUntil(() => document.head.querySelector('script[type="module"]'))
    expect(entry?.getAttribute('src')).toBe('/assets/index-1.js')
    expect(document.head.querySelector('link[rel="modulepreload"]')?.getAttribute('href')).toBe(
      '/assets/app-1.js',
    )
  })

  it('waits for the largest picture before starting the code', async () => {
    document.body.insertAdjacentHTML('afterbegin', '<img fetchpriority="high" src="/media/x1.webp" alt="">')
    const picture = document.querySelector('img') as HTMLImageElement
    Object.defineProperty(picture, 'complete', { value: false })
    await loadBoot()
    await afterFrames()
    expect(document.head.querySelector('script[type="module"]')).toBeNull()
    picture.dispatchEvent(new Event('load'))
    const entry = await vi.waitUntil(() => document.head.querySelector('script[type="module"]'))
    expect(entry.getAttribute('src')).toBe('/assets/index-1.js')
  })

  it('holds a click on a button until the page is live, then makes it again, once', async () => {
    await loadBoot()
    const button = document.getElementById('report') as HTMLButtonElement
    const clicks = vi.fn()
    button.addEventListener('click', clicks)
    button.click()
    button.click()
    expect(clicks).not.toHaveBeenCalled()

    document.dispatchEvent(new Event('page-live'))
    expect(clicks).toHaveBeenCalledTimes(1)
    // Live now: clicks go through as they are.
    button.click()
    expect(clicks).toHaveBeenCalledTimes(2)
    await afterFrames()
  })

  it('holds a pick of a radio button (by its label) until the page is live, then makes it', async () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<label id="battery"><input type="radio" name="battery" id="b80"><span>Battery 80% or more</span></label>',
    )
    await loadBoot()
    const radio = document.getElementById('b80') as HTMLInputElement
    const changes = vi.fn()
    radio.addEventListener('change', changes)
    ;(document.querySelector('#battery span') as HTMLElement).click()
    // Not picked yet: the page's code would set it back, and nothing would follow the pick.
    expect(radio.checked).toBe(false)
    expect(changes).not.toHaveBeenCalled()

    document.dispatchEvent(new Event('page-live'))
    expect(radio.checked).toBe(true)
    expect(changes).toHaveBeenCalledTimes(1)
    await afterFrames()
  })

  it('makes a checkbox clicked twice (once by its label) before the page is live no click at all', async () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<label id="alerts"><input type="checkbox" id="daily"><span>Daily digest</span></label>',
    )
    await loadBoot()
    const box = document.getElementById('daily') as HTMLInputElement
    const changes = vi.fn()
    box.addEventListener('change', changes)
    ;(document.querySelector('#alerts span') as HTMLElement).click()
    box.click()
    expect(box.checked).toBe(false)

    document.dispatchEvent(new Event('page-live'))
    expect(box.checked).toBe(false)
    expect(changes).not.toHaveBeenCalled()
    await afterFrames()
  })

  it('lets clicks through when the page’s code cannot load', async () => {
    await loadBoot()
    const entry = await vi.waitUntil(() => document.head.querySelector('script[type="module"]'))
    entry.dispatchEvent(new Event('error'))
    const button = document.getElementById('report') as HTMLButtonElement
    const clicks = vi.fn()
    button.addEventListener('click', clicks)
    button.click()
    expect(clicks).toHaveBeenCalledTimes(1)
  })

  it('lets a click on a link through', async () => {
    await loadBoot()
    const link = document.getElementById('link') as HTMLAnchorElement
    const clicks = vi.fn((event: Event) => event.preventDefault())
    link.addEventListener('click', clicks)
    link.click()
    expect(clicks).toHaveBeenCalledTimes(1)
    await afterFrames()
  })
})
