import {
  type APIRequestContext,
  type Browser,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from '@playwright/test'
import type { Brand } from '#contract/brands'
import type { Me } from '#contract/users'
import { expectNoSeriousAxeViolations, gotoInteractive, mainHeading } from './helpers'

// Accounts: signup as buyer or seller, every client-side message, the provider's error, coming back after
// sign-in, sign out; and the admin's Make Admin, Verify and Delete. Every test makes its own people.

const PASSWORD = 'laptop-market-e2e-1'
const ADMIN = { email: 'admin@laptopmarket.test', password: 'demo-pass-123' }

type Person = { name: string; email: string; password: string }

function newPerson(tag: string, name: string): Person {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  return { name: `${name} ${id}`, email: `${tag}-${id}@example.test`, password: PASSWORD }
}

/** Signs a new person up through the API, in a request context of its own (not the page's). */
async function signUpByApi(role: 'buyer' | 'seller', name: string): Promise<Person> {
  const person = newPerson(role, name)
  const api = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL })
  try {
    const res = await api.post('/api/auth/sign-up/email', { data: { ...person, role } })
    expect(res.ok(), `sign-up of a ${role}: ${res.status()} ${await res.text()}`).toBe(true)
  } finally {
    await api.dispose()
  }
  return person
}

async function me(request: APIRequestContext): Promise<Me | null> {
  const res = await request.get('/api/me')
  return res.status() === 401 ? null : ((await res.json()) as Me)
}

async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Email Address').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Login', exact: true }).click()
}

async function signInAsAdmin(page: Page, path: string) {
  await page.goto(`/login?from=${encodeURIComponent(path)}`)
  await fillLogin(page, ADMIN.email, ADMIN.password)
  await expect(page).toHaveURL(path)
}

function fieldError(page: Page, label: string) {
  // The message sits under its field and is tied to it with aria-describedby.
  return page.getByLabel(label, { exact: true })
}

test.describe('signup', () => {
  test('a buyer signs up, lands home signed in, and sees My Orders on the dashboard', async ({ page }) => {
    const buyer = newPerson('buyer', 'Bea Buyer')
    await page.goto('/signup')
    await expect(mainHeading(page, 'Sign Up')).toBeVisible()
    const role = page.getByLabel('Role')
    await expect(role.locator('option').first()).toHaveText('buyer')
    await expect(role).toHaveValue('buyer')

    await page.getByLabel('Name').fill(buyer.name)
    await page.getByLabel('Email Address').fill(buyer.email)
    await page.getByLabel('Password').fill(buyer.password)
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click()

    await expect(page.getByText('User Created Successfully')).toBeVisible()
    // "Check your inbox" first (paying needs the address confirmed), then on to where the person was going.
    await expect(page).toHaveURL(/\/welcome$/)
    await page.getByRole('link', { name: 'Start browsing' }).click()
    await expect(page).toHaveURL('/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible()
    await expect(nav.getByRole('button', { name: 'Sign Out' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0)
    expect(await me(page.request)).toMatchObject({ email: buyer.email, name: buyer.name, role: 'buyer' })

    await nav.getByRole('link', { name: 'Dashboard' }).click()
    const menu = page.getByRole('navigation', { name: 'Dashboard' })
    await expect(menu.getByRole('link', { name: 'My Orders' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Add a Product' })).toHaveCount(0)
    await expect(menu.getByRole('link', { name: 'All Buyers' })).toHaveCount(0)
    await expect(page.getByText('Bookings', { exact: true })).toBeVisible()
  })

  test('a seller signs up and sees Add a Product and My Product', async ({ page }) => {
    const seller = newPerson('seller', 'Sol Seller')
    await page.goto(`/signup?from=${encodeURIComponent('/dashboard')}`)
    await page.getByLabel('Name').fill(seller.name)
    await page.getByLabel('Email Address').fill(seller.email)
    await page.getByLabel('Password').fill(seller.password)
    await page.getByLabel('Role').selectOption('seller')
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click()

    await expect(page.getByText('User Created Successfully')).toBeVisible()
    await expect(page).toHaveURL(/\/welcome\?from=/)
    await page.getByRole('link', { name: 'Continue' }).click()
    await expect(page).toHaveURL('/dashboard')
    const menu = page.getByRole('navigation', { name: 'Dashboard' })
    await expect(menu.getByRole('link', { name: 'Add a Product' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'My Product' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'My Orders' })).toHaveCount(0)
    expect(await me(page.request)).toMatchObject({ email: seller.email, role: 'seller' })
    // The seed's follow-up call is idempotent: the record exists once, as a seller.
    const again = await page.request.post('/api/sellers', {
      data: { name: seller.name, email: seller.email, role: 'admin' },
    })
    expect(again.ok()).toBe(true)
    expect(await me(page.request)).toMatchObject({ role: 'seller' })
  })
})

test.describe('client-side messages', () => {
  test('login: every message, under its field @both', async ({ page }) => {
    await page.goto('/login')
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await expect(page.getByText('Email Address is required')).toBeVisible()
    await expect(page.getByText('Password is required')).toBeVisible()
    await expect(fieldError(page, 'Email Address')).toHaveAccessibleDescription('Email Address is required')
    await expect(fieldError(page, 'Password')).toHaveAccessibleDescription('Password is required')

    await page.getByLabel('Email Address').fill('someone@example.test')
    await page.getByLabel('Password').fill('12345')
    await page.getByRole('button', { name: 'Login', exact: true }).click()
    await expect(page.getByText('Password must be 6 character or longer')).toBeVisible()
    await expect(page.getByText('Email Address is required')).toHaveCount(0)
    await expectNoSeriousAxeViolations(page)
  })

  test('signup: every message, including the role', async ({ page }) => {
    await page.goto('/signup')
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click()
    for (const message of ['Name is required', 'Email Address is required', 'Password is required']) {
      await expect(page.getByText(message)).toBeVisible()
    }
    await page.getByLabel('Name').fill('Shorty')
    await page.getByLabel('Email Address').fill('shorty@example.test')
    await page.getByLabel('Password').fill('abc')
    // A role that is neither buyer nor seller (a tampered form): the select is left with no choice.
    await page.getByLabel('Role').evaluate((select: HTMLSelectElement) => {
      select.selectedIndex = -1
      select.dispatchEvent(new Event('change', { bubbles: true }))
    })
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click()
    await expect(page.getByText('Password must be 6 character or longer')).toBeVisible()
    await expect(page.getByText('User role is required')).toBeVisible()
    await expect(page.getByText('Name is required')).toHaveCount(0)
    await expectNoSeriousAxeViolations(page)
  })

  test("a wrong password shows the provider's error in red under the form", async ({ page }) => {
    const buyer = await signUpByApi('buyer', 'Wren Wrong')
    await page.goto('/login')
    await fillLogin(page, buyer.email, 'not-the-password')
    const alert = page.getByRole('alert').filter({ hasText: /invalid email or password/i })
    await expect(alert).toBeVisible()
    // Under the form, in the red error style.
    await expect(page.locator('form[aria-label="Login"]').getByRole('alert')).toContainText(
      /invalid email or password/i,
    )
    await expect(alert.locator('p')).toHaveClass(/text-red-700/)
    await expect(page).toHaveURL('/login')
    expect(await me(page.request)).toBeNull()
  })
})

test.describe('session', () => {
  test('a protected page sends a signed-out visitor to login and back after sign-in', async ({ page }) => {
    const buyer = await signUpByApi('buyer', 'Remy Return')
    await page.goto('/dashboard/myorders')
    await expect(page).toHaveURL(`/login?from=${encodeURIComponent('/dashboard/myorders')}`)
    await fillLogin(page, buyer.email, buyer.password)
    await expect(page.getByText('User Login Successfully')).toBeVisible()
    await expect(page).toHaveURL('/dashboard/myorders')
    await expect(
      page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'My Orders' }),
    ).toBeVisible()
  })

  test('sign out ends the session on the server', async ({ page }) => {
    const buyer = await signUpByApi('buyer', 'Otto Out')
    await page.goto('/login')
    await fillLogin(page, buyer.email, buyer.password)
    await expect(page).toHaveURL('/')
    const cookies = await page.context().cookies()
    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('button', { name: 'Sign Out' }).click()

    await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible()
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0)
    expect(await me(page.request)).toBeNull()
    // The old session cookie no longer works anywhere: the server ended the session.
    const replay = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL })
    try {
      const session = cookies.filter((c) => c.name.includes('session_token'))
      expect(session.length).toBeGreaterThan(0)
      const res = await replay.get('/api/me', {
        headers: { cookie: session.map((c) => `${c.name}=${c.value}`).join('; ') },
      })
      expect(res.status()).toBe(401)
    } finally {
      await replay.dispose()
    }
  })

  test('a signed-in buyer is told, not shown, the admin pages', async ({ page }) => {
    const buyer = await signUpByApi('buyer', 'Nosy Parker')
    await page.goto(`/login?from=${encodeURIComponent('/dashboard/allbuyers')}`)
    await fillLogin(page, buyer.email, buyer.password)
    await expect(page.getByText("You don't have access to this page")).toBeVisible()
    await expect(page.getByRole('table')).toHaveCount(0)
  })
})

test.describe('admin tools', () => {
  async function findRow(page: Page, person: Person) {
    await page.getByLabel(/Search (buyers|sellers) by name or email/).fill(person.email)
    const row = page.getByRole('row').filter({ hasText: person.email })
    await expect(row).toHaveCount(1)
    await expect(page.getByRole('row')).toHaveCount(2)
    return row
  }

  test('Make Admin turns a buyer into an admin', async ({ page }) => {
    const buyer = await signUpByApi('buyer', 'Ada Promoted')
    await signInAsAdmin(page, '/dashboard/allbuyers')
    await expect(mainHeading(page, 'All Buyers')).toBeVisible()
    const row = await findRow(page, buyer)
    await expect(row.getByRole('cell').nth(1)).toHaveText('buyer')
    await row.getByRole('button', { name: 'Make Admin' }).click()
    // It asks first, and the answer can be taken back from the Admins list.
    const dialog = page.getByRole('dialog', { name: `Make ${buyer.name} an admin?` })
    await expect(dialog).toBeVisible()
    await expectNoSeriousAxeViolations(page)
    await dialog.getByRole('button', { name: 'Make Admin' }).click()
    await expect(page.getByText('Make Admin Successfully')).toBeVisible()
    // An admin is listed under Admins, no longer among the buyers.
    await expect(page.getByRole('row').filter({ hasText: buyer.email })).toHaveCount(0)
    await page.getByRole('link', { name: 'Admins' }).click()
    // The Admins list is short and has no search box.
    const adminRow = page.getByRole('row').filter({ hasText: buyer.email })
    await expect(adminRow).toHaveCount(1)
    await expect(adminRow.getByRole('cell').nth(1)).toHaveText('admin')
    await adminRow.getByRole('button', { name: `Remove admin ${buyer.name}` }).click()
    await page
      .getByRole('dialog', { name: `Remove ${buyer.name} as an admin?` })
      .getByRole('button', { name: 'Remove admin' })
      .click()
    await expect(page.getByText(`${buyer.name} is no longer an admin`)).toBeVisible()
  })

  test('Verify marks a seller verified', async ({ page }) => {
    const seller = await signUpByApi('seller', 'Vera Verified')
    await signInAsAdmin(page, '/dashboard/allsellers')
    await expect(mainHeading(page, 'All Sellers')).toBeVisible()
    const row = await findRow(page, seller)
    await row.getByRole('button', { name: 'Verify' }).click()
    await expect(page.getByText(`Seller ${seller.name} is now verified`)).toBeVisible()
    await expect(row.getByText('Verified', { exact: true })).toBeVisible()
    await expect(row.getByRole('button', { name: 'Verify' })).toHaveCount(0)
  })

  test('Delete asks first, Cancel and Escape keep the buyer, Delete removes them', async ({ page }) => {
    const buyer = await signUpByApi('buyer', 'Dot Deleted')
    await signInAsAdmin(page, '/dashboard/allbuyers')
    const row = await findRow(page, buyer)

    await row.getByRole('button', { name: `Delete ${buyer.name}` }).click()
    let dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete?' })
    await expect(dialog).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toHaveCount(0)

    await row.getByRole('button', { name: `Delete ${buyer.name}` }).click()
    dialog = page.getByRole('dialog', { name: 'Are you sure you want to delete?' })
    await expect(dialog).toBeVisible()
    // Focus stays inside the open dialog.
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await expect(dialog.locator(':focus')).toHaveCount(1)
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(row).toHaveCount(1)

    await row.getByRole('button', { name: `Delete ${buyer.name}` }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText(`Buyer ${buyer.name} deleted successfully`)).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: buyer.email })).toHaveCount(0)

    // The account is disabled: it can no longer sign in.
    const api = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL })
    try {
      const res = await api.post('/api/auth/sign-in/email', {
        data: { email: buyer.email, password: buyer.password },
      })
      expect(res.ok()).toBe(false)
    } finally {
      await api.dispose()
    }
  })

  test('Delete removes a seller', async ({ page }) => {
    const seller = await signUpByApi('seller', 'Sid Deleted')
    await signInAsAdmin(page, '/dashboard/allsellers')
    const row = await findRow(page, seller)
    await row.getByRole('button', { name: `Delete ${seller.name}` }).click()
    await page
      .getByRole('dialog', { name: 'Are you sure you want to delete?' })
      .getByRole('button', { name: 'Delete' })
      .click()
    await expect(page.getByText(`Seller ${seller.name} deleted successfully`)).toBeVisible()
    await expect(page.getByRole('row').filter({ hasText: seller.email })).toHaveCount(0)
  })

  test('an admin is listed under Admins, and their own row offers no action the server would refuse', async ({
    page,
  }) => {
    await signInAsAdmin(page, '/dashboard/allbuyers?role=admin')
    const row = page.getByRole('row').filter({ hasText: ADMIN.email })
    await expect(row).toHaveCount(1)
    await expect(row.getByRole('button')).toHaveCount(0)
  })
})

test.describe('reports', () => {
  /** A new seller lists a laptop through the API; reports and removals then touch no one else's data. */
  async function listLaptop(browser: Browser) {
    const context = await browser.newContext()
    try {
      const seller = newPerson('seller', 'Rex Reported')
      const signup = await context.request.post('/api/auth/sign-up/email', {
        data: { ...seller, role: 'seller' },
      })
      expect(signup.ok()).toBe(true)
      const brands = (await (await context.request.get('/api/brands')).json()) as Brand[]
      const name = `E2E reported ${Math.random().toString(36).slice(2, 8)} Latitude`
      const res = await context.request.post('/api/products', {
        data: {
          name,
          category_id: brands[0]?._id,
          seller_phone: '+1 555 010 3000',
          resale_price: 420,
          original_price: 999,
          description: 'Too good to be true, say the reporters.',
          condition: 'Fair',
          location: 'Denver, CO',
          uses: 3,
          processor: 'Intel Core i5-8350U',
          ram_gb: 8,
          storage_gb: 256,
          screen_inches: 14,
          img: '/images/laptop-placeholder.svg',
        },
      })
      expect(res.status(), await res.text()).toBe(201)
      const { insertedId } = (await res.json()) as { insertedId: string }
      return { id: insertedId, name }
    } finally {
      await context.close()
    }
  }

  test('a signed-out visitor who reports a listing is asked to sign in first', async ({ page, browser }) => {
    const listing = await listLaptop(browser)
    // The page is server-rendered: its button acts once the scripts have hydrated it.
    await gotoInteractive(page, `/products/${listing.id}`)
    await page.getByRole('button', { name: 'Report this listing' }).click()
    await expect(page).toHaveURL(`/login?from=${encodeURIComponent(`/products/${listing.id}`)}`)
  })

  test('a buyer reports a listing; the admin sees it and removes the listing', async ({ page, browser }) => {
    const listing = await listLaptop(browser)
    const buyer = newPerson('buyer', 'Rita Reporter')
    const signup = await page.request.post('/api/auth/sign-up/email', { data: { ...buyer, role: 'buyer' } })
    expect(signup.ok()).toBe(true)

    await page.goto(`/products/${listing.id}`)
    await page.getByRole('button', { name: 'Report this listing' }).click()
    const dialog = page.getByRole('dialog', { name: 'Report this listing' })
    await dialog.getByRole('button', { name: 'Send report' }).click()
    await expect(dialog.getByText('Tell us what is wrong in at least 10 characters')).toBeVisible()
    const reason = 'The same photos appear on another site with a different price.'
    await dialog.getByLabel('Reason').fill(reason)
    await dialog.getByRole('button', { name: 'Send report' }).click()
    await expect(page.getByText('Thank you. An admin will review this listing.')).toBeVisible()
    await expect(dialog).toHaveCount(0)

    const admin = await browser.newContext()
    try {
      const adminPage = await admin.newPage()
      await signInAsAdmin(adminPage, '/dashboard/reportedItems')
      await expect(mainHeading(adminPage, 'Reported Items')).toBeVisible()
      const report = adminPage.getByRole('article').filter({ hasText: listing.name })
      await expect(report).toContainText(reason)
      await expect(report).toContainText(buyer.email)
      await expect(report.getByRole('img', { name: listing.name })).toBeVisible()
      await report.getByRole('button', { name: `Remove listing ${listing.name}` }).click()
      await adminPage.getByRole('dialog').getByRole('button', { name: 'Remove listing' }).click()
      await expect(adminPage.getByText(`${listing.name} was removed`)).toBeVisible()
      await expect(report).toHaveCount(0)
      expect((await adminPage.request.get(`/api/products/${listing.id}`)).status()).toBe(404)
    } finally {
      await admin.close()
    }
  })
})
