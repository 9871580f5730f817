// A page the server rendered loads this instead of its code. The page can be read and its links followed before
// any script runs, so the code is asked for once the page's largest picture is on screen: on a phone's link the
// picture and the stylesheet then have the bandwidth to themselves, and the code comes right after instead of
// beside them (decision 0030). A click on a button or a choice meanwhile is made again once the page is live. A page the
// browser renders itself (index.html as built) loads its entry at once and never runs this.
//
// It imports nothing, so it builds to one small file of its own (vite.config.ts).

/** The server's inert list of the page's code: the entry in `data-entry`, module preloads as its content. */
const PAGE_CODE_ID = 'page-code'
/** What app/layouts/public-frame.tsx dispatches on `document` once React has hydrated the page. */
const PAGE_LIVE_EVENT = 'page-live'
/** Longest wait for the picture: a stalled image must not keep a page from answering clicks. */
const PICTURE_WAIT_MS = 2500

function afterLargestPaint(): Promise<void> {
  return new Promise((resolve) => {
    let done = false
    const finish = () => {
      if (done) return
      done = true
      resolve()
    }
    setTimeout(finish, PICTURE_WAIT_MS)
    const picture = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]')
    // Loaded and decoded (the picture decodes off the main thread), then painted: the frame after the next one
    // has shown it. A hidden tab paints no frames; the cap resolves it.
    const afterPaint = () =>
      void (picture ? picture.decode() : Promise.resolve())
        .catch(() => undefined)
        .then(() => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(finish, 0))))
    if (!picture || picture.complete) afterPaint()
    else {
      picture.addEventListener('load', afterPaint, { once: true })
      picture.addEventListener('error', afterPaint, { once: true })
    }
  })
}

/** Whether an input is one a click changes: a radio button or a checkbox. */
const isToggle = (el: unknown): el is HTMLInputElement =>
  el instanceof HTMLInputElement && (el.type === 'radio' || el.type === 'checkbox')

/**
 * What a click on `target` would work through the page's code: a button, or a radio button or checkbox (clicked or
 * through its label). A link works without code; those do not, and a radio button picked before the page is live
 * would be set back by its first render.
 */
function controlClicked(target: EventTarget | null): HTMLElement | null {
  if (!(target instanceof Element)) return null
  const button = target.closest('button')
  if (button) return button
  const input = target.closest('input') ?? target.closest('label')?.control
  return isToggle(input) ? input : null
}

/**
 * Clicks on buttons and choices before the code has taken the page over would be lost, so they are held (the choice
 * does not change) and made again once the page says it is live (app/layouts/public-frame.tsx).
 */
function holdButtonClicks(): { release: () => void } {
  const held: HTMLElement[] = []
  const hold = (event: MouseEvent) => {
    const control = controlClicked(event.target)
    if (!control) return
    event.preventDefault()
    event.stopPropagation()
    // A button or radio button is clicked once however often it was; two clicks on a checkbox undo each other.
    const at = held.indexOf(control)
    if (at < 0) held.push(control)
    else if (control instanceof HTMLInputElement && control.type === 'checkbox') held.splice(at, 1)
  }
  document.addEventListener('click', hold, true)
  const release = () => document.removeEventListener('click', hold, true)
  document.addEventListener(
    PAGE_LIVE_EVENT,
    () => {
      release()
      for (const control of held) if (control.isConnected) control.click()
    },
    { once: true },
  )
  return { release }
}

function startCode(clicks: { release: () => void }) {
  const code = document.getElementById(PAGE_CODE_ID)
  if (!(code instanceof HTMLTemplateElement) || !code.dataset.entry) {
    clicks.release()
    return
  }
  // The preloads first, so the entry and the page's own chunks download together rather than one after another.
  document.head.append(code.content)
  const entry = document.createElement('script')
  entry.type = 'module'
  entry.crossOrigin = ''
  entry.src = code.dataset.entry
  // Without its code (offline, or a new version deployed meanwhile) the page's buttons do what they do without it.
  entry.addEventListener('error', clicks.release, { once: true })
  document.head.append(entry)
}

const clicks = holdButtonClicks()
void afterLargestPaint().then(() => startCode(clicks))

// A module, with nothing to share.
export {}
