// The three battery reports a laptop writes, read from real-shaped samples (fixtures/), and their broken cousins.
import { describe, expect, it } from 'vitest'
import { seededRandom } from '#server/lib/seeded-random'
import {
  LINUX_REPORT as LINUX,
  MACOS_REPORT as MACOS,
  mangle,
  WINDOWS_REPORT as WINDOWS,
} from '#server/test/battery-samples'
import { BatteryReportError, findDate, parseBatteryReport } from './parse-report'

const NOW = new Date('2026-11-20T12:00:00Z')
const parse = (text: string | Buffer, now = NOW) =>
  parseBatteryReport(typeof text === 'string' ? Buffer.from(text) : text, now)

function refusal(text: string | Buffer): string {
  try {
    parse(text)
  } catch (err) {
    expect(err).toBeInstanceOf(BatteryReportError)
    return (err as Error).message
  }
  throw new Error('the report was accepted')
}

describe('reading the real formats', () => {
  it('reads a Windows powercfg /batteryreport page: full ÷ design, cycle count, report time', () => {
    const report = parse(WINDOWS)
    expect(report).toMatchObject({
      source: 'windows',
      designCapacity: 57_000,
      fullCapacity: 49_590,
      unit: 'mWh',
      healthPct: 87,
      cycles: 212,
    })
    expect(report.reportDate.toISOString()).toBe('2026-11-12T14:03:27.000Z')
  })

  it('reads macOS system_profiler SPPowerDataType with the date line the form asks for', () => {
    const report = parse(MACOS)
    expect(report).toMatchObject({ source: 'macos', healthPct: 89, cycles: 187, unit: '%' })
    expect(report.reportDate.toISOString()).toBe('2026-11-12T14:03:27.000Z')
  })

  it('reads Linux upower -i on the battery (energy in Wh)', () => {
    const report = parse(LINUX)
    expect(report).toMatchObject({
      source: 'linux',
      designCapacity: 57,
      fullCapacity: 44.61,
      unit: 'Wh',
      healthPct: 78,
      cycles: 341,
    })
    expect(report.reportDate.toISOString().slice(0, 10)).toBe('2026-11-12')
  })

  it('reads an upower battery that reports charge in mAh and no cycle count', () => {
    const text = LINUX.replace('energy-full:         44.61 Wh', 'charge-full:         4200 mAh')
      .replace('energy-full-design:  57 Wh', 'charge-full-design:  4800 mAh')
      .replace(/ {4}charge-cycles: +341\n/, '')
    expect(parse(text)).toMatchObject({ healthPct: 88, cycles: null, unit: 'mAh' })
  })

  it('reads a Windows report of a battery whose firmware counts no cycles ("-"), and two batteries summed', () => {
    expect(parse(WINDOWS.replace(/<td>\s*212\s*<\/td>/, '<td>-</td>'))).toMatchObject({ cycles: null })
    const two = WINDOWS.replace('<td>57,000 mWh', '<td>23,200 mWh</td><td>33,800 mWh').replace(
      '<td>49,590 mWh\n      </td></tr><tr><td><span class="label">CYCLE',
      '<td>20,000 mWh</td><td>29,590 mWh\n      </td></tr><tr><td><span class="label">CYCLE',
    )
    expect(parse(two)).toMatchObject({ designCapacity: 57_000, fullCapacity: 49_590, healthPct: 87 })
  })

  it('takes a UTF-16 file with its byte-order mark (as some editors save it)', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(LINUX, 'utf16le')])
    expect(parse(utf16)).toMatchObject({ source: 'linux', healthPct: 78 })
  })

  it('counts a new battery slightly over design as 100%', () => {
    expect(parse(LINUX.replace('44.61 Wh', '59.1 Wh')).healthPct).toBe(100)
  })

  it('reads the dates each system writes', () => {
    expect(findDate('Thu Nov 12 14:03:27 UTC 2026')?.toISOString()).toBe('2026-11-12T14:03:27.000Z')
    expect(findDate('Thu 12 Nov 2026 02:03:27 PM CET (3 seconds ago)')?.toISOString().slice(0, 10)).toBe(
      '2026-11-12',
    )
    expect(findDate('11/12/2026 2:03:27 PM')?.toISOString().slice(0, 10)).toBe('2026-11-12')
    expect(findDate('2026-02-31 10:00:00')).toBeUndefined()
    expect(findDate('no date here')).toBeUndefined()
  })
})

describe('refusing what is not a whole, believable report', () => {
  it('refuses another web page', () => {
    expect(
      refusal('<!DOCTYPE html><html><head><title>My laptop</title></head><body>Battery 100%</body></html>'),
    ).toMatch(/not a Windows battery report/)
  })

  it('refuses a Windows report cut short, before or after the capacities', () => {
    expect(refusal(WINDOWS.slice(0, WINDOWS.indexOf('FULL CHARGE CAPACITY')))).toMatch(/cut short/)
    expect(refusal(WINDOWS.slice(0, WINDOWS.indexOf('Battery capacity history')))).toMatch(/cut short/)
  })

  it('refuses a Windows report with a row missing', () => {
    const noDesign = WINDOWS.replace('DESIGN CAPACITY</span>', 'DESIGN</span>')
    expect(refusal(noDesign)).toMatch(/no design capacity/)
    expect(refusal(WINDOWS.replace('REPORT TIME', 'TIME'))).toMatch(/no report time/)
  })

  it('refuses a truncated macOS or Linux report', () => {
    expect(refusal(MACOS.slice(0, MACOS.indexOf('Health Information')))).toMatch(/incomplete/)
    expect(refusal(LINUX.slice(0, LINUX.indexOf('energy-full:')))).toMatch(/incomplete/)
    expect(refusal(MACOS.replace('2026-11-12T14:03:27Z\n', ''))).toMatch(/no date on the first line/)
  })

  it('refuses a full charge above design by more than 10%', () => {
    expect(refusal(WINDOWS.replace('49,590 mWh', '63,000 mWh'))).toMatch(/more than 10% above its design/)
    expect(refusal(LINUX.replace('44.61 Wh', '62.8 Wh'))).toMatch(/more than 10% above its design/)
    expect(refusal(MACOS.replace('Maximum Capacity: 89%', 'Maximum Capacity: 111%'))).toMatch(/10% above/)
  })

  it('refuses a binary file, an empty one, and text with control bytes', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex')
    expect(refusal(png)).toMatch(/not text/)
    expect(refusal(Buffer.alloc(0))).toMatch(/empty/)
    expect(refusal(`${LINUX}\u0000\u0001`)).toMatch(/not text/)
  })

  it('refuses a report dated in the future, a dead battery, and an unknown text', () => {
    expect(refusal(LINUX.replace('12 Nov 2026', '12 Nov 2027'))).toMatch(/future/)
    expect(refusal(LINUX.replace('44.61 Wh', '0 Wh'))).toMatch(/holds no charge/)
    expect(refusal('hello, this is my battery: very good')).toMatch(/not a battery report/)
  })
})

describe('fuzzing the parsers', () => {
  it('either reads believable facts or refuses with a BatteryReportError, for 3,000 mangled reports', () => {
    const random = seededRandom(2026)
    const samples = [WINDOWS, MACOS, LINUX].map((s) => Buffer.from(s))
    let read = 0
    for (let i = 0; i < 3000; i++) {
      // Mangled once or twice over.
      let input = mangle(samples[i % 3] as Buffer, random)
      if (random() < 0.5) input = mangle(input, random)
      try {
        const report = parseBatteryReport(input, NOW)
        read++
        expect(Number.isInteger(report.healthPct) && report.healthPct >= 1 && report.healthPct <= 100).toBe(
          true,
        )
        expect(report.cycles === null || (Number.isInteger(report.cycles) && report.cycles <= 10_000)).toBe(
          true,
        )
        expect(Number.isNaN(report.reportDate.getTime())).toBe(false)
      } catch (err) {
        if (!(err instanceof BatteryReportError)) throw new Error(`case ${i}: ${String(err)}`)
      }
    }
    // Some survive their mangling (a digit changed in a serial number), most do not: both paths are exercised.
    expect(read).toBeGreaterThan(100)
    expect(read).toBeLessThan(2900)
  })

  it('stays linear on hostile shapes (many open tags, no closing ones)', () => {
    const hostile = `<!DOCTYPE html><html><head><title>Battery report</title></head>installed batteries${'<tr<td<'.repeat(200_000)}</html>`
    expect(() => parseBatteryReport(Buffer.from(hostile), NOW)).toThrow(BatteryReportError)
    const lines = `Power:\nBattery Information:\n${'a:'.repeat(300_000)}`
    expect(() => parseBatteryReport(Buffer.from(lines), NOW)).toThrow(BatteryReportError)
  })
})
