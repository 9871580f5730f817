import { expect, type Locator, type Page, test } from '@playwright/test'
import { formatMoney } from '#contract/money'
import { CONDITION_DEFINITIONS } from '#contract/products'
import {
  DEMO_BUYER,
  type DemoData,
  expectImagesHaveAlt,
  expectLoaded,
  expectNoHorizontalScroll,
  expectNoSeriousAxeViolations,
  loadDemoData,
  mainHeading,
  productCards,
  searchProducts,
  signInByApi,
} from './helpers'

// A visitor, signed out, browses the public site. Tests tagged @both also run on the 360 px phone.

type PageCase = {
  name: string
  path: (data: DemoData) => string
  status: 200 | 404
  /** Brand pages are for signed-in users: the scan signs the demo buyer in first. */
  signedIn?: boolean
  ready: (page: Page, data: DemoData) => Promise<void>
}

const notFoundReady = async (page: Page) => {
  await expect(mainHeading(page, 'Page not found')).toBeVisible()
}

const PAGES: PageCase[] = [
  {
    name: 'home',
    path: () => '/',
    status: 200,
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 2, name: 'Advertised Laptops' })).toBeVisible()
      await expect(productCards(page).first()).toBeVisible()
    },
  },
  {
    name: 'blog',
    path: () => '/blog',
    status: 200,
    ready: async (page) => expect(mainHeading(page, 'Blog')).toBeVisible(),
  },
  {
    name: 'all laptops',
    path: () => '/productcard',
    status: 200,
    ready: async (page) => {
      await expect(mainHeading(page, 'All Laptops')).toBeVisible()
      await expect(productCards(page).first()).toBeVisible()
    },
  },
  {
    name: 'advertised laptops',
    path: () => '/advertise',
    status: 200,
    ready: async (page) => {
      await expect(mainHeading(page, 'Advertised Laptops')).toBeVisible()
      await expect(productCards(page).first()).toBeVisible()
    },
  },
  {
    name: 'brand category',
    path: (d) => `/category/${d.brand._id}`,
    status: 200,
    signedIn: true,
    ready: async (page) => {
      await expect(mainHeading(page, 'Select Your Favourite Laptop')).toBeVisible()
      await expect(productCards(page).first()).toBeVisible()
    },
  },
  {
    name: 'product detail',
    path: (d) => `/products/${d.product._id}`,
    status: 200,
    ready: async (page, d) => expect(mainHeading(page, d.product.name)).toBeVisible(),
  },
  {
    name: 'about',
    path: () => '/about',
    status: 200,
    ready: async (page) => expect(mainHeading(page, 'About Laptop Market')).toBeVisible(),
  },
  {
    name: 'contact',
    path: () => '/contact',
    status: 200,
    ready: async (page) => expect(mainHeading(page, 'Contact us')).toBeVisible(),
  },
  {
    name: 'terms',
    path: () => '/terms',
    status: 200,
    ready: async (page) => expect(mainHeading(page, 'Terms of Service')).toBeVisible(),
  },
  {
    name: 'privacy',
    path: () => '/privacy',
    status: 200,
    ready: async (page) => expect(mainHeading(page, 'Privacy Policy')).toBeVisible(),
  },
  { name: 'unknown path', path: () => '/no-such-page', status: 404, ready: notFoundReady },
  { name: 'unknown dashboard path', path: () => '/dashboard/xyz', status: 404, ready: notFoundReady },
]

async function open(page: Page, data: DemoData, pageCase: PageCase) {
  if (pageCase.signedIn) await signInByApi(page.request, DEMO_BUYER)
  const response = await page.goto(pageCase.path(data))
  expect(response?.status(), `HTTP status of ${pageCase.path(data)}`).toBe(pageCase.status)
  await pageCase.ready(page, data)
  await expectLoaded(page)
}

// Every page: its HTTP status and alt texts; on the desktop an axe scan, on the phone no sideways scrolling
// (the phone's open navigation gets its own axe scan in the Menu test below).
for (const pageCase of PAGES) {
  test(
    `${pageCase.name}: status, alt texts, accessibility or fit`,
    { tag: '@both' },
    async ({ page, request }, testInfo) => {
      const data = await loadDemoData(request)
      await open(page, data, pageCase)
      await expectImagesHaveAlt(page)
      if (testInfo.project.name === 'phone') await expectNoHorizontalScroll(page)
      else await expectNoSeriousAxeViolations(page)
    },
  )
}

function header(page: Page): Locator {
  return page.getByRole('banner')
}

function footer(page: Page): Locator {
  return page.getByRole('contentinfo')
}

/**
 * The slide in view: of the slides (elements marked aria-roledescription="slide", else the images),
 * the one that shows the most of itself inside the carousel. Works for sliding and fading carousels.
 */
async function currentSlide(carousel: Locator): Promise<string> {
  return carousel.evaluate((region) => {
    const box = region.getBoundingClientRect()
    const marked = Array.from(region.querySelectorAll('[aria-roledescription="slide"]'))
    const slides = marked.length ? marked : Array.from(region.querySelectorAll('img'))
    let best = ''
    let bestScore = 0
    slides.forEach((slide, index) => {
      const r = slide.getBoundingClientRect()
      const w = Math.max(0, Math.min(r.right, box.right) - Math.max(r.left, box.left))
      const h = Math.max(0, Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top))
      let opacity = 1
      for (let el: Element | null = slide; el && el !== region.parentElement; el = el.parentElement) {
        opacity *= Number(getComputedStyle(el).opacity)
      }
      const score = w * h * opacity
      if (score > bestScore) {
        bestScore = score
        const img = slide.tagName === 'IMG' ? slide : slide.querySelector('img')
        best = `${index}: ${img?.getAttribute('alt') ?? slide.textContent?.slice(0, 60)}`
      }
    })
    return best
  })
}

/** The current slide once it has stopped moving. */
async function settledSlide(page: Page, carousel: Locator): Promise<string> {
  let previous = await currentSlide(carousel)
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(150)
    const now = await currentSlide(carousel)
    if (now === previous && now) return now
    previous = now
  }
  return previous
}

test('home: slideshow moves by itself, pauses, and answers buttons and arrow keys', async ({ page }) => {
  // A controlled clock: the slideshow's timer is jumped forward instead of waited for.
  await page.clock.install()
  await page.goto('/')
  const carousel = page.locator('section[aria-roledescription="carousel"][aria-label="Featured laptops"]')
  await expect(carousel).toBeVisible()
  // The later slides' pictures are rendered once the carousel's engine has attached (decision 0149).
  await expect.poll(() => carousel.locator('img').count()).toBeGreaterThan(1)
  const altTexts = await carousel.locator('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))
  for (const alt of altTexts) expect(alt?.trim(), 'slide image alt').toBeTruthy()

  const previousButton = carousel.getByRole('button', { name: 'Previous slide' })
  const nextButton = carousel.getByRole('button', { name: 'Next slide' })
  await expect(previousButton).toBeVisible()
  await expect(nextButton).toBeVisible()

  const first = await settledSlide(page, carousel)
  expect(first, 'a slide is in view').toBeTruthy()
  await page.clock.fastForward(15_000)
  await expect
    .poll(() => currentSlide(carousel), { message: 'the slideshow advances by itself' })
    .not.toBe(first)

  await carousel.getByRole('button', { name: 'Pause slideshow' }).click()
  const playButton = carousel.getByRole('button', { name: 'Play slideshow' })
  await expect(playButton).toBeVisible()
  const paused = await settledSlide(page, carousel)
  await page.clock.fastForward(30_000)
  await page.waitForTimeout(500)
  expect(await settledSlide(page, carousel), 'a paused slideshow stays put').toBe(paused)

  await nextButton.click()
  await expect.poll(() => currentSlide(carousel), { message: 'Next slide moves on' }).not.toBe(paused)
  const afterNext = await settledSlide(page, carousel)
  await previousButton.click()
  await expect.poll(() => currentSlide(carousel), { message: 'Previous slide moves back' }).toBe(paused)

  // Arrow keys work while focus is in the carousel (on the region itself, or on one of its controls).
  const regionFocusable = (await carousel.getAttribute('tabindex')) !== null
  if (regionFocusable) await carousel.focus()
  else await playButton.focus()
  await page.keyboard.press('ArrowRight')
  await expect.poll(() => currentSlide(carousel), { message: 'ArrowRight moves on' }).toBe(afterNext)
  await page.keyboard.press('ArrowLeft')
  await expect.poll(() => currentSlide(carousel), { message: 'ArrowLeft moves back' }).toBe(paused)

  await playButton.click()
  await expect(carousel.getByRole('button', { name: 'Pause slideshow' })).toBeVisible()
})

test('home: advertised laptops, brands and about us', async ({ page, request }) => {
  const data = await loadDemoData(request)
  await page.goto('/')
  const main = page.getByRole('main')

  await expect(main.getByRole('heading', { level: 2, name: 'Advertised Laptops' })).toBeVisible()
  await expectLoaded(page)
  const cards = productCards(main)
  await expect(cards.first()).toBeVisible()
  const advertisedNames = new Set(data.advertised.map((p) => p.name))
  const shownNames = await cards.evaluateAll((els) =>
    els.map((el) => el.querySelector('a[href^="/products/"]:not(:has(img))')?.textContent?.trim() ?? ''),
  )
  expect(shownNames.length).toBeLessThanOrEqual(data.advertised.length)
  for (const name of shownNames) expect(advertisedNames, `"${name}" is advertised`).toContain(name)

  await expect(main.getByRole('heading', { level: 2, name: 'Shop by Brand' })).toBeVisible()
  expect(data.brands.length).toBeGreaterThanOrEqual(6)
  for (const brand of data.brands) {
    await expect(main.getByRole('img', { name: `${brand.brand_name} logo`, exact: true })).toBeVisible()
    await expect(main.locator(`a[href="/category/${brand._id}"]`).first()).toBeVisible()
  }

  await expect(main.getByRole('heading', { level: 2, name: 'About Us' })).toBeVisible()
})

test('navbar: the site name, Home, Blog and Login lead to their pages', async ({ page }) => {
  await page.goto('/blog')
  const nav = header(page)
  await expect(nav.getByRole('link', { name: 'Login', exact: true })).toHaveAttribute('href', '/login')

  await nav.getByRole('link', { name: 'Home', exact: true }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { level: 2, name: 'Advertised Laptops' })).toBeVisible()

  await nav.getByRole('link', { name: 'Blog', exact: true }).click()
  await expect(page).toHaveURL('/blog')
  await expect(mainHeading(page, 'Blog')).toBeVisible()

  await nav.getByRole('link', { name: 'Laptop Market', exact: true }).click()
  await expect(page).toHaveURL('/')

  await nav.getByRole('link', { name: 'Login', exact: true }).click()
  await expect(page).toHaveURL('/login')
})

test('footer: every link opens its page', async ({ page }) => {
  await page.goto('/')
  const links: [string, string, string][] = [
    ['About', '/about', 'About Laptop Market'],
    ['Contact', '/contact', 'Contact us'],
    ['Terms', '/terms', 'Terms of Service'],
    ['Privacy', '/privacy', 'Privacy Policy'],
    ['Blog', '/blog', 'Blog'],
  ]
  for (const [label, path, heading] of links) {
    await footer(page).getByRole('link', { name: label, exact: true }).click()
    await expect(page).toHaveURL(path)
    await expect(mainHeading(page, heading)).toBeVisible()
  }
})

test('blog: four questions, each with its answer', async ({ page }) => {
  await page.goto('/blog')
  await expect(mainHeading(page, 'Blog')).toBeVisible()
  const questions = page.getByRole('main').getByRole('heading', { level: 2 })
  await expect(questions).toHaveCount(4)
  const texts = await questions.allTextContents()
  expect(new Set(texts.map((t) => t.trim())).size, 'four different questions').toBe(4)
  for (const question of await questions.all()) {
    const answer = await question.evaluate((h) => {
      let text = ''
      for (let el = h.nextElementSibling; el && !/^H[1-2]$/.test(el.tagName); el = el.nextElementSibling) {
        text += el.textContent ?? ''
      }
      return (text || h.parentElement?.textContent?.replace(h.textContent ?? '', '') || '').trim()
    })
    expect(answer.length, `an answer follows "${await question.textContent()}"`).toBeGreaterThan(40)
  }
})

test('all laptops: a filter narrows the list and shows in the URL; pages turn', async ({ page, request }) => {
  const everything = await searchProducts(request, {})
  await page.goto('/productcard')
  await expect(mainHeading(page, 'All Laptops')).toBeVisible()
  await expectLoaded(page)
  const main = page.getByRole('main')
  const cards = productCards(main)
  await expect(cards.first()).toBeVisible()
  const perPage = await cards.count()
  expect(perPage).toBeLessThanOrEqual(everything.total)

  // Pagination (the demo data holds more laptops than one page shows).
  const pages = Math.ceil(everything.total / perPage)
  expect(pages, 'more than one page of laptops').toBeGreaterThan(1)
  await expect(main.getByText(`Page 1 of ${pages}`, { exact: true })).toBeVisible()
  const firstOnPage1 = await cards.first().textContent()
  const next = main
    .getByRole('button', { name: 'Next', exact: true })
    .or(main.getByRole('link', { name: 'Next', exact: true }))
  const previous = main
    .getByRole('button', { name: 'Previous', exact: true })
    .or(main.getByRole('link', { name: 'Previous', exact: true }))
  await next.click()
  await expect(main.getByText(`Page 2 of ${pages}`, { exact: true })).toBeVisible()
  await expect(page).toHaveURL(/[?&]page=2\b/)
  await expectLoaded(page)
  await expect(cards.first()).not.toHaveText(firstOnPage1 ?? '')
  await previous.click()
  await expect(main.getByText(`Page 1 of ${pages}`, { exact: true })).toBeVisible()
  await expect(cards.first()).toHaveText(firstOnPage1 ?? '')

  // A search word that matches some laptops but not all, found through the API.
  let word = ''
  let matches = 0
  const candidates = [...new Set(everything.items.flatMap((p) => p.name.split(/\s+/)))].filter((w) =>
    /^[A-Za-z][A-Za-z0-9]{2,}$/.test(w),
  )
  for (const candidate of candidates.slice(0, 12)) {
    const found = await searchProducts(request, { q: candidate })
    if (found.total > 0 && found.total < everything.total) {
      word = candidate
      matches = found.total
      break
    }
  }
  expect(word, 'a search word that narrows the list').toBeTruthy()

  const search = main
    .getByRole('searchbox', { name: 'Search' })
    .or(main.getByRole('textbox', { name: 'Search' }))
  await search.fill(word)
  await search.press('Enter')
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word}\\b`))
  await expectLoaded(page)
  await expect(cards).toHaveCount(Math.min(matches, perPage))
})

test('advertised laptops page lists the advertised laptops', async ({ page, request }) => {
  const data = await loadDemoData(request)
  await page.goto('/advertise')
  await expect(mainHeading(page, 'Advertised Laptops')).toBeVisible()
  await expectLoaded(page)
  await expect(productCards(page.getByRole('main'))).toHaveCount(data.advertised.length)
})

test('a brand link on the home page opens that brand, after signing in', async ({ page, request }) => {
  const data = await loadDemoData(request)
  const categoryPath = `/category/${data.brand._id}`
  await page.goto('/')
  await page.getByRole('main').locator(`a[href="${categoryPath}"]`).first().click()
  // Brand pages are for signed-in users: a visitor signs in on /login and comes back to the brand.
  const emailField = page.getByLabel('Email Address')
  await expect(mainHeading(page, 'Select Your Favourite Laptop').or(emailField)).toBeVisible()
  if (await emailField.isVisible()) {
    await expect(page).toHaveURL(`/login?from=${encodeURIComponent(categoryPath)}`)
    await emailField.fill(DEMO_BUYER.email)
    await page.getByLabel('Password').fill(DEMO_BUYER.password)
    await page.getByRole('button', { name: 'Login', exact: true }).click()
  }
  await expect(page).toHaveURL(categoryPath)
  const brandProducts = await (await page.request.get(`/api${categoryPath}`)).json()
  await expect(mainHeading(page, 'Select Your Favourite Laptop')).toBeVisible()
  await expect(page.getByRole('main').getByText(data.brand.brand_name).first()).toBeVisible()
  // The brand's logo keeps its shape in its square: not stretched to fill it.
  const logo = page.getByRole('main').getByAltText(`${data.brand.brand_name} logo`)
  await expect(logo).toHaveCSS('object-fit', 'contain')
  await expectLoaded(page)
  await expect(productCards(page.getByRole('main'))).toHaveCount(brandProducts.length)
})

test('a product card opens the laptop with its specs; Book Now asks to sign in', async ({
  page,
  request,
}) => {
  await page.goto('/productcard')
  await expectLoaded(page)
  const card = productCards(page.getByRole('main')).first()
  const nameLink = card.locator('a[href^="/products/"]').filter({ hasText: /\S/ }).first()
  const href = await nameLink.getAttribute('href')
  const id = href?.split('/').pop() ?? ''
  const product = await (await request.get(`/api/products/${id}`)).json()
  await expect(nameLink).toHaveText(product.name)
  await expect(card.getByRole('img', { name: product.name, exact: true })).toBeVisible()
  await expect(card).toContainText(formatMoney(product.resale_price_cents))
  await expect(card).toContainText(formatMoney(product.original_price_cents))
  await expect(card).toContainText(product.condition)
  await expect(card).toContainText(product.location)
  await expect(card).toContainText(product.seller_name)
  await expect(card).toContainText(
    product.uses === 1
      ? '1 year of use'
      : product.uses < 1
        ? 'Less than a year of use'
        : `${product.uses} years of use`,
  )
  await expect(card).toContainText(product.sellStatus ? 'Sold' : 'Available')

  await nameLink.click()
  await expect(page).toHaveURL(`/products/${id}`)
  await expect(mainHeading(page, product.name)).toBeVisible()
  const main = page.getByRole('main')
  for (const label of ['Processor', 'RAM', 'Storage', 'Screen']) {
    await expect(main.getByText(label, { exact: true }).first()).toBeVisible()
  }
  await expect(main.getByText(product.processor).first()).toBeVisible()
  await expect(main).toContainText(formatMoney(product.resale_price_cents))
  await expect(main).toContainText(
    CONDITION_DEFINITIONS[product.condition as keyof typeof CONDITION_DEFINITIONS],
  )
  await expect(main).toContainText(product.seller_name)
  await expect(main.getByRole('img', { name: product.name }).first()).toBeVisible()

  const bookNow = main
    .getByRole('button', { name: 'Book Now' })
    .or(main.getByRole('link', { name: 'Book Now' }))
  await bookNow.click()
  await expect(page).toHaveURL(/\/login\b/)
})

test('unknown brand and product ids say so', async ({ page }) => {
  const unknownId = '00000000-0000-4000-8000-000000000000'
  await signInByApi(page.request, DEMO_BUYER)
  await page.goto(`/category/${unknownId}`)
  await expect(page.getByText('Brand not found').first()).toBeVisible()
  await expect(page.getByRole('main').getByRole('link').first()).toBeVisible()
  await page.goto(`/products/${unknownId}`)
  await expect(page.getByText('Product not found').first()).toBeVisible()
})

for (const path of ['/no-such-page', '/dashboard/xyz']) {
  test(`${path}: the 404 page leads back home`, async ({ page, request }) => {
    expect((await request.get(path)).status()).toBe(404)
    const response = await page.goto(path)
    expect(response?.status()).toBe(404)
    await expect(mainHeading(page, 'Page not found')).toBeVisible()
    await expect(page.getByRole('img', { name: 'Page not found', exact: true })).toBeVisible()
    await page.getByRole('link', { name: 'Back to home', exact: true }).click()
    await expect(page).toHaveURL('/')
    await expect(page.getByRole('heading', { level: 2, name: 'Advertised Laptops' })).toBeVisible()
  })
}

test('known pages answer 200', async ({ request }) => {
  const data = await loadDemoData(request)
  for (const pageCase of PAGES.filter((p) => p.status === 200)) {
    const path = pageCase.path(data)
    expect((await request.get(path)).status(), path).toBe(200)
  }
})

test('phone: the Menu button opens the navigation', { tag: '@phone' }, async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 2, name: 'Advertised Laptops' })).toBeVisible()
  await expectLoaded(page)
  const nav = header(page)
  const blogLink = nav.getByRole('link', { name: 'Blog', exact: true })
  await expect(blogLink).toBeHidden()
  await nav.getByRole('button', { name: 'Menu' }).click()
  await expect(blogLink).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Home', exact: true })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Login', exact: true })).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await blogLink.click()
  await expect(page).toHaveURL('/blog')
  await expect(mainHeading(page, 'Blog')).toBeVisible()
  await expectNoHorizontalScroll(page)
})
