// deploy/alerts.yaml is Prometheus rule format, and every metric its rules name is one /metrics exports.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { createTestApp, type TestApp } from '#server/test/test-app'

const FILE = path.resolve(import.meta.dirname, '../deploy/alerts.yaml')
const TOKEN = 'alerts-test-token-0123456789abcdef'
/** Prometheus's own series (not the app's). */
const PROMETHEUS_SERIES = new Set(['up'])
/** Function names, keywords and label names that look like series names in PromQL. */
const NOT_SERIES = new Set([
  'sum',
  'rate',
  'max',
  'min',
  'by',
  'le',
  'delta',
  'histogram_quantile',
  'clamp_min',
  'and',
  'or',
  'unless',
  'instance',
  'queue',
  'job',
  'state',
  'status',
  'route',
  'method',
  'for',
  'without',
  'on',
  'ignoring',
])

type Rule = {
  alert?: string
  expr?: unknown
  for?: unknown
  labels?: Record<string, string>
  annotations?: Record<string, string>
}

let t: TestApp
let exported: Set<string>
beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN })
  await t.app.inject({ method: 'GET', url: '/api/brands' })
  await t.app.inject({ method: 'GET', url: '/api/search?q=x' })
  const text = (
    await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
  ).body
  exported = new Set(
    text
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(l)?.[0] ?? ''),
  )
})
afterAll(async () => {
  await t?.close()
})

describe('deploy/alerts.yaml', () => {
  const doc = parse(fs.readFileSync(FILE, 'utf8')) as { groups: { name: string; rules: Rule[] }[] }

  it('is a Prometheus rule file: named groups of alerts, each with an expression, a severity and a summary', () => {
    expect(doc.groups.length).toBeGreaterThan(0)
    const names = new Set<string>()
    for (const group of doc.groups) {
      expect(group.name).toMatch(/\S/)
      for (const rule of group.rules) {
        expect(rule.alert).toMatch(/^[A-Za-z][A-Za-z0-9]*$/)
        expect(names.has(rule.alert as string), `${rule.alert} twice`).toBe(false)
        names.add(rule.alert as string)
        expect(typeof rule.expr).toBe('string')
        if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/)
        expect(['page', 'ticket']).toContain(rule.labels?.severity)
        expect(rule.annotations?.summary).toMatch(/\S/)
        expect(
          Object.keys(rule).every((k) => ['alert', 'expr', 'for', 'labels', 'annotations'].includes(k)),
        ).toBe(true)
      }
    }
  })

  it('names only metrics the app exports', () => {
    const named = new Set<string>()
    for (const group of doc.groups)
      for (const rule of group.rules) {
        // Leave out quoted strings, ranges and numbers (1e-9) before looking for names.
        const expr = String(rule.expr)
          .replace(/"[^"]*"/g, '""')
          .replace(/\[[^\]]*\]/g, '')
          .replace(/(?<![A-Za-z0-9_])\d[\d.]*(e[+-]?\d+)?/g, '0')
        for (const m of expr.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g))
          if (!NOT_SERIES.has(m[0]) && !/^\d/.test(m[0])) named.add(m[0])
      }
    expect(named.size).toBeGreaterThan(8)
    for (const name of named)
      expect(exported.has(name) || PROMETHEUS_SERIES.has(name), `${name} is not exported`).toBe(true)
  })
})
