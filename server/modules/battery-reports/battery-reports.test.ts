// POST /api/products/{id}/battery-report: the laptop's own report read on the server, its facts on the listing,
// the file kept private, every bad upload a 400 that changes nothing.

import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BatteryReportFacts, BatteryReportFile } from '#contract/battery-reports'
import { Product } from '#contract/products'
import { batteryReports, products } from '#server/db/schema'
import { seededRandom } from '#server/lib/seeded-random'
import { bearerFor, insertUser } from '#server/test/auth-helpers'
import { LINUX_REPORT, MACOS_REPORT, mangle, WINDOWS_REPORT } from '#server/test/battery-samples'
import { createBrand, createProduct } from '#server/test/factories'
import { fileBody } from '#server/test/multipart'
import { createTestApp, type TestApp } from '#server/test/test-app'

let t: TestApp
let seller: { id: string }
let sellerAuth: Record<string, string>
let otherAuth: Record<string, string>
let buyerAuth: Record<string, string>
let brand: { id: string }

beforeAll(async () => {
  t = await createTestApp()
  const s = await insertUser(t.db, { role: 'seller' })
  seller = s
  sellerAuth = await bearerFor(t.app, s)
  otherAuth = await bearerFor(t.app, await insertUser(t.db, { role: 'seller' }))
  buyerAuth = await bearerFor(t.app, await insertUser(t.db, { role: 'buyer' }))
  brand = await createBrand(t.db, { name: 'Lenovo' })
})

afterAll(async () => {
  await t?.close()
})

const listing = (extra: Parameters<typeof createProduct>[1] extends infer P ? Partial<P> : never = {}) =>
  createProduct(t.db, { seller, brand, ...extra })

function upload(
  id: string,
  data: string | Buffer,
  auth = sellerAuth,
  filename = 'battery-report.html',
  contentType = 'text/html',
) {
  const body = fileBody(data, filename, contentType)
  return t.app.inject({
    method: 'POST',
    url: `/api/products/${id}/battery-report`,
    headers: { ...auth, ...body.headers },
    payload: body.payload,
  })
}

async function read(id: string) {
  return Product.parse((await t.app.inject({ method: 'GET', url: `/api/products/${id}` })).json())
}

async function rowOf(id: string) {
  const [row] = await t.db.select().from(products).where(eq(products.id, id))
  return row
}

describe('uploading the laptop’s report', () => {
  it('reads a Windows report and the listing carries the facts as verified', async () => {
    const p = await listing({ condition: 'Excellent', batteryHealthPct: 88, batteryCycles: 200 })
    const res = await upload(p.id, WINDOWS_REPORT)
    expect(res.statusCode).toBe(200)
    const facts = BatteryReportFacts.parse(res.json())
    expect(facts).toMatchObject({
      battery_health_pct: 87,
      battery_cycles: 212,
      source: 'windows',
      report_date: '2026-11-12T14:03:27.000Z',
      notices: [],
    })
    const product = await read(p.id)
    expect(product).toMatchObject({
      battery_verified: true,
      battery_health_pct: 87,
      battery_cycles: 212,
      battery_source: 'windows',
      battery_report_date: '2026-11-12T14:03:27.000Z',
    })
  })

  it('reads macOS and Linux reports', async () => {
    const mac = await listing()
    expect(
      (await upload(mac.id, MACOS_REPORT, sellerAuth, 'battery-report.txt', 'text/plain')).json(),
    ).toMatchObject({ battery_health_pct: 89, battery_cycles: 187, source: 'macos' })
    const linux = await listing()
    const res = await upload(linux.id, LINUX_REPORT, sellerAuth, 'battery-report.txt', 'text/plain')
    expect(res.json()).toMatchObject({ battery_health_pct: 78, battery_cycles: 341, source: 'linux' })
    expect((await read(linux.id)).battery_source).toBe('linux')
  })

  it('replaces a typed figure that disagrees by more than one point, and says so', async () => {
    const p = await listing({ batteryHealthPct: 95 })
    const facts = BatteryReportFacts.parse((await upload(p.id, WINDOWS_REPORT)).json())
    expect(facts.notices).toEqual([
      "You typed 95%; the laptop's report reads 87%, so the listing now shows 87%.",
    ])
    expect((await rowOf(p.id))?.batteryHealthPct).toBe(87)
    // Within a point: no notice.
    const close = await listing({ batteryHealthPct: 86 })
    expect(BatteryReportFacts.parse((await upload(close.id, WINDOWS_REPORT)).json()).notices).toEqual([])
  })

  it('marks a report older than 30 days', async () => {
    const p = await listing()
    const res = await upload(p.id, LINUX_REPORT.replace('12 Nov 2026', '12 Aug 2026'))
    // The report's age is counted from today; a report of August is old by any clock this test runs on after it.
    expect(res.json().report_is_old).toBe(new Date() > new Date('2026-09-11T14:03:27Z'))
    expect((await read(p.id)).battery_report_is_old).toBe(res.json().report_is_old)
  })

  it('keeps the file private: only the facts leave the server', async () => {
    const p = await listing()
    await upload(p.id, WINDOWS_REPORT)
    const [kept] = await t.db.select().from(batteryReports).where(eq(batteryReports.productId, p.id))
    expect(kept?.content).toBe(WINDOWS_REPORT)
    expect(kept?.designCapacity).toBe(57_000)
    const body = (await t.app.inject({ method: 'GET', url: `/api/products/${p.id}` })).body
    expect(body).not.toContain('DESKTOP-7K2M4QF')
    expect(body).not.toContain('57000')
  })

  it('uses the report’s figure for the grade rules, and refuses a grade the report does not reach', async () => {
    const p = await listing({ condition: 'Excellent' })
    const res = await upload(p.id, LINUX_REPORT) // 78%
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toBe(
      'The report reads 78%, and Excellent needs at least 85%: change the condition to Good first, then upload the report again',
    )
    expect((await rowOf(p.id))?.batteryReportSource).toBeNull()
    // Once verified, a typed figure is replaced and the grade is checked against the report's.
    const good = await listing({ condition: 'Good' })
    expect((await upload(good.id, LINUX_REPORT)).statusCode).toBe(200)
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/products/${good.id}`,
      headers: sellerAuth,
      payload: { battery_health_pct: 92, battery_cycles: 10 },
    })
    expect(edit.statusCode).toBe(200)
    expect(edit.json().notices).toEqual([
      "The battery was read from the laptop's report (78%), so the figure you typed was replaced by it.",
      "The charge cycles come from the laptop's report (341), so the number you typed was replaced by it.",
    ])
    expect(await rowOf(good.id)).toMatchObject({ batteryHealthPct: 78, batteryCycles: 341 })
    const upgrade = await t.app.inject({
      method: 'PATCH',
      url: `/api/products/${good.id}`,
      headers: sellerAuth,
      payload: { condition: 'Excellent', battery_health_pct: 90 },
    })
    expect(upgrade.statusCode).toBe(400)
    expect(upgrade.json().error.fields.battery_health_pct).toMatch(/the laptop's report reads 78%/)
    expect((await rowOf(good.id))?.condition).toBe('Good')
  })
})

describe('who may upload', () => {
  it('only the listing’s seller; others get 403, a buyer 403, nobody 401, an unknown listing 404', async () => {
    const p = await listing()
    expect((await upload(p.id, WINDOWS_REPORT, otherAuth)).statusCode).toBe(403)
    expect((await upload(p.id, WINDOWS_REPORT, buyerAuth)).statusCode).toBe(403)
    expect((await upload(p.id, WINDOWS_REPORT, {})).statusCode).toBe(401)
    expect((await upload('00000000-0000-4000-8000-000000000000', WINDOWS_REPORT)).statusCode).toBe(404)
    expect((await rowOf(p.id))?.batteryReportSource).toBeNull()
  })

  it('not on a sold listing', async () => {
    const p = await listing({ isSold: true })
    expect((await upload(p.id, WINDOWS_REPORT)).statusCode).toBe(409)
  })
})

describe('bad uploads: a clear 400 and nothing changed', () => {
  const cases: [string, () => string | Buffer, RegExp][] = [
    [
      'another web page',
      () => '<!DOCTYPE html><html><head><title>Specs</title></head><body>Battery: great</body></html>',
      /not a Windows battery report/,
    ],
    ['a truncated report', () => WINDOWS_REPORT.slice(0, 3000), /cut short/],
    ['full charge above design +10%', () => WINDOWS_REPORT.replace('49,590 mWh', '64,000 mWh'), /10% above/],
    [
      'a binary file',
      () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff]),
      /not text/,
    ],
    ['a 50 MB file', () => Buffer.alloc(50 * 1024 * 1024, 'a'), /at most 5 MB/],
    ['an empty file', () => Buffer.alloc(0), /empty/],
  ]
  it.each(cases)('%s', async (_name, data, message) => {
    const p = await listing({ batteryHealthPct: 80, batteryCycles: 100 })
    const before = await rowOf(p.id)
    const res = await upload(p.id, data())
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toMatch(message)
    expect(res.json().error.fields.file).toMatch(message)
    expect(await rowOf(p.id)).toEqual(before)
    expect(await t.db.select().from(batteryReports).where(eq(batteryReports.productId, p.id))).toEqual([])
  })

  it('refuses a request that is not multipart, or has no file', async () => {
    const p = await listing()
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/products/${p.id}/battery-report`,
      headers: sellerAuth,
      payload: { file: WINDOWS_REPORT },
    })
    expect(json.statusCode).toBe(400)
    expect(json.json().error.message).toMatch(/multipart/)
  })
})

describe('fuzzing the upload never gives a 500', () => {
  it('answers 200 or 400 to mangled reports', async () => {
    const p = await listing({ condition: 'Fair' })
    const random = seededRandom(28)
    const samples = [WINDOWS_REPORT, MACOS_REPORT, LINUX_REPORT]
    for (let i = 0; i < 40; i++) {
      const sample = Buffer.from(samples[i % 3] as string)
      const res = await upload(p.id, mangle(sample, random))
      expect([200, 400]).toContain(res.statusCode)
      if (res.statusCode === 200) BatteryReportFacts.parse(res.json())
    }
  })
})

describe("the admin's look at the report file", () => {
  it('shows an admin the file as the seller uploaded it, with its date and the upload time; nobody else', async () => {
    const adminAuth = await bearerFor(t.app, await insertUser(t.db, { role: 'admin' }))
    const p = await listing({ condition: 'Excellent', batteryHealthPct: 88, batteryCycles: 200 })
    const url = `/api/products/${p.id}/battery-report`
    expect((await t.app.inject({ method: 'GET', url, headers: adminAuth })).statusCode).toBe(404)
    expect((await upload(p.id, WINDOWS_REPORT)).statusCode).toBe(200)
    const res = await t.app.inject({ method: 'GET', url, headers: adminAuth })
    expect(res.statusCode).toBe(200)
    const file = BatteryReportFile.parse(res.json())
    expect(file).toMatchObject({
      source: 'windows',
      file_name: 'battery-report.html',
      content: WINDOWS_REPORT,
    })
    expect(Date.parse(file.uploaded_at)).toBeGreaterThan(Date.now() - 60_000)
    for (const auth of [sellerAuth, buyerAuth, {}]) {
      expect((await t.app.inject({ method: 'GET', url, headers: auth })).statusCode).toBeGreaterThanOrEqual(
        401,
      )
    }
  })

  it('describes the API field for what it is: read from a file the seller uploaded, not checked', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json()
    const descriptions = [
      ...JSON.stringify(doc).matchAll(/"battery_verified":\{[^}]*"description":"([^"]*)"/g),
    ].map((m) => m[1])
    expect(descriptions.length).toBeGreaterThan(0)
    for (const text of descriptions) {
      expect(text).toContain("read from the seller's report file")
      expect(text).toContain('not that anyone checked the battery')
    }
  })
})
