import type { BatteryReportSource } from '#contract/battery-reports'

// Reads the three reports a laptop writes about its battery. Every way a file can be wrong ends in a
// BatteryReportError whose message the seller sees; nothing here may throw anything else, and nothing scans the
// text more than a bounded number of times (no backtracking regular expression over the whole file).

export class BatteryReportError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BatteryReportError'
  }
}

export type ParsedBatteryReport = {
  source: BatteryReportSource
  /** Design and full-charge capacity as the report gives them, in `unit`; null where the report gives a percentage. */
  designCapacity: number | null
  fullCapacity: number | null
  unit: 'mWh' | 'mAh' | 'Wh' | '%'
  healthPct: number
  cycles: number | null
  reportDate: Date
}

/** A full charge above design by more than this is not a real battery's (new cells read a few percent over). */
const MAX_OVER_DESIGN = 1.1
const MAX_CYCLES = 10_000

const WINDOWS_HOW = 'run powercfg /batteryreport and upload battery-report.html as it wrote it'

export function parseBatteryReport(
  bytes: Uint8Array,
  now = new Date(),
): ParsedBatteryReport & { text: string } {
  const text = decodeText(bytes)
  return { ...readText(text, now), text }
}

function readText(text: string, now: Date): ParsedBatteryReport {
  const head = text.slice(0, 4096).toLowerCase()
  if (head.includes('<html') || head.includes('<!doctype')) return parseWindows(text, now)
  if (/^\s*power:\s*$/m.test(head) || text.includes('Battery Information:')) return parseMac(text, now)
  if (
    text.includes('native-path:') ||
    text.includes('energy-full-design:') ||
    text.includes('charge-full-design:')
  )
    return parseLinux(text, now)
  throw new BatteryReportError(
    'This file is not a battery report we can read: upload the Windows battery-report.html, or the text from system_profiler SPPowerDataType (macOS) or upower -i (Linux)',
  )
}

// ---------------------------------------------------------------------------------------------
// Text: UTF-8 (or UTF-16 with its byte-order mark), no control bytes but line ends and tabs.
// ---------------------------------------------------------------------------------------------

function decodeText(bytes: Uint8Array): string {
  if (bytes.length === 0) throw new BatteryReportError('The file is empty: upload the battery report itself')
  let text: string
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe)
      text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes)
    else if (bytes[0] === 0xfe && bytes[1] === 0xff)
      text = new TextDecoder('utf-16be', { fatal: true }).decode(bytes)
    else text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw notText()
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
  if (/[\u0000-\u0008\u000e-\u001f\u007f]/.test(text)) throw notText()
  return text
}

const notText = () =>
  new BatteryReportError('This file is not text: upload the battery report itself (an .html or .txt file)')

const incomplete = (what: string, how: string) =>
  new BatteryReportError(`The report is incomplete (no ${what} found): ${how}`)

// ---------------------------------------------------------------------------------------------
// Windows: powercfg /batteryreport writes an HTML page; the facts are label/value rows of its tables.
// ---------------------------------------------------------------------------------------------

function parseWindows(html: string, now: Date): ParsedBatteryReport {
  const lower = html.toLowerCase()
  const title = between(lower, '<title>', '</title>')
  if (title?.trim() !== 'battery report' || !lower.includes('installed batteries')) {
    throw new BatteryReportError(`This web page is not a Windows battery report: ${WINDOWS_HOW}`)
  }
  if (!lower.trimEnd().endsWith('</html>')) {
    throw new BatteryReportError(
      `The report is cut short (it does not end as powercfg writes it): ${WINDOWS_HOW}`,
    )
  }
  const rows = tableRows(html)
  const design = sumOf(rows.get('DESIGN CAPACITY'))
  if (design === undefined) throw incomplete('design capacity', WINDOWS_HOW)
  const full = sumOf(rows.get('FULL CHARGE CAPACITY'))
  if (full === undefined) throw incomplete('full charge capacity', WINDOWS_HOW)
  const cycleCells = rows.get('CYCLE COUNT')
  if (!cycleCells || cycleCells.length === 0) throw incomplete('cycle count', WINDOWS_HOW)
  // A battery whose firmware does not count cycles reads "-".
  const counted = cycleCells.map((c) => wholeNumber(c)).filter((n): n is number => n !== undefined)
  const cycles = counted.length > 0 ? Math.max(...counted) : null
  const time = rows.get('REPORT TIME')?.[0]
  if (time === undefined) throw incomplete('report time', WINDOWS_HOW)
  const reportDate = findDate(time)
  if (!reportDate) throw incomplete('readable report time', WINDOWS_HOW)
  return finish('windows', design, full, 'mWh', cycles, reportDate, now, WINDOWS_HOW)
}

/** The text between two markers (first occurrence), or undefined. */
function between(text: string, start: string, end: string): string | undefined {
  const from = text.indexOf(start)
  if (from < 0) return undefined
  const to = text.indexOf(end, from + start.length)
  return to < 0 ? undefined : text.slice(from + start.length, to)
}

/**
 * Each table row whose first cell is an upper-case label, by that label: the other cells' text. The first row with
 * a label wins (the capacity history further down repeats some words in its headings, never as a first cell).
 */
function tableRows(html: string): Map<string, string[]> {
  const rows = new Map<string, string[]>()
  const pieces = html.split(/<tr\b/i)
  for (let i = 1; i < pieces.length; i++) {
    const piece = pieces[i] as string
    const endAt = piece.search(/<\/tr>/i)
    const row = endAt < 0 ? piece : piece.slice(0, endAt)
    const cells = row
      .split(/<td\b/i)
      .slice(1)
      .map((cell) => {
        const close = cell.search(/<\/td>/i)
        // The cell's own text starts after the opening tag's ">".
        const inner = cell.slice(cell.indexOf('>') + 1, close < 0 ? undefined : close)
        return textOf(inner)
      })
    const label = cells[0]
    if (label && /^[A-Z][A-Z ]{2,40}$/.test(label) && !rows.has(label)) rows.set(label, cells.slice(1))
  }
  return rows
}

/** Tags dropped, a few entities decoded, white space folded: one linear pass. */
function textOf(html: string): string {
  let out = ''
  let inTag = false
  for (const ch of html) {
    if (ch === '<') inTag = true
    else if (ch === '>' && inTag) {
      inTag = false
      out += ' '
    } else if (!inTag) out += ch
  }
  return out
    .replace(/&nbsp;|&#160;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Capacities of every battery in the row ("57,000 mWh"), summed; undefined when none reads as a number. */
function sumOf(cells: string[] | undefined): number | undefined {
  if (!cells) return undefined
  let total: number | undefined
  for (const cell of cells) {
    const match = /^([0-9][0-9,. \u00a0\u202f]{0,14})\s*mWh$/i.exec(cell)
    if (!match?.[1]) continue
    const value = Number(match[1].replace(/[^0-9]/g, ''))
    if (Number.isSafeInteger(value)) total = (total ?? 0) + value
  }
  return total
}

function wholeNumber(text: string): number | undefined {
  const trimmed = text.trim()
  if (!/^[0-9]{1,6}$/.test(trimmed)) return undefined
  return Number(trimmed)
}

// ---------------------------------------------------------------------------------------------
// macOS: system_profiler SPPowerDataType, "Key: value" lines; the date is the line the command in the form adds.
// ---------------------------------------------------------------------------------------------

const MAC_HOW =
  'run (date -u +%Y-%m-%dT%H:%M:%SZ; system_profiler SPPowerDataType) > ~/battery-report.txt and upload that file'

function parseMac(text: string, now: Date): ParsedBatteryReport {
  const fields = keyValues(text)
  if (!fields.has('battery information') && !fields.has('health information')) {
    throw incomplete('battery information', MAC_HOW)
  }
  const cycleText = fields.get('cycle count')
  if (cycleText === undefined) throw incomplete('cycle count', MAC_HOW)
  const cycles = wholeNumber(cycleText)
  if (cycles === undefined)
    throw new BatteryReportError(`The cycle count "${clip(cycleText)}" is not a number`)
  const firstLine = text.trimStart().split('\n', 1)[0] ?? ''
  const reportDate = findDate(firstLine)
  if (!reportDate) throw incomplete('date on the first line', MAC_HOW)
  // Apple's own full ÷ design, when macOS shows it; otherwise the two capacities if the report has both.
  const maximum = fields.get('maximum capacity')
  if (maximum !== undefined) {
    const match = /^([0-9]{1,3})\s*%$/.exec(maximum)
    if (!match?.[1])
      throw new BatteryReportError(`The maximum capacity "${clip(maximum)}" is not a percentage`)
    return finish('macos', 100, Number(match[1]), '%', cycles, reportDate, now, MAC_HOW)
  }
  const full = decimal(fields.get('full charge capacity (mah)'))
  if (full === undefined) throw incomplete('maximum capacity', MAC_HOW)
  const design = decimal(fields.get('design capacity (mah)') ?? fields.get('design capacity'))
  if (design === undefined) throw incomplete('design capacity', MAC_HOW)
  return finish('macos', design, full, 'mAh', cycles, reportDate, now, MAC_HOW)
}

// ---------------------------------------------------------------------------------------------
// Linux: upower -i on the battery, "key: value" lines.
// ---------------------------------------------------------------------------------------------

const LINUX_HOW = 'run upower -i $(upower -e | grep BAT) > ~/battery-report.txt and upload that file'

function parseLinux(text: string, now: Date): ParsedBatteryReport {
  const fields = keyValues(text)
  const energy = fields.has('energy-full-design')
  const designKey = energy ? 'energy-full-design' : 'charge-full-design'
  const fullKey = energy ? 'energy-full' : 'charge-full'
  const unit = energy ? 'Wh' : 'mAh'
  const design = decimal(fields.get(designKey))
  if (design === undefined) throw incomplete('design capacity', LINUX_HOW)
  const full = decimal(fields.get(fullKey))
  if (full === undefined) throw incomplete('full charge capacity', LINUX_HOW)
  const updated = fields.get('updated')
  if (updated === undefined) throw incomplete('"updated" time', LINUX_HOW)
  const reportDate = findDate(updated)
  if (!reportDate) throw incomplete('readable "updated" time', LINUX_HOW)
  // Older upower does not print charge-cycles; some batteries report none.
  const cycleText = fields.get('charge-cycles')
  const cycles = cycleText === undefined ? null : (wholeNumber(cycleText) ?? null)
  return finish('linux', design, full, unit, cycles, reportDate, now, LINUX_HOW)
}

/** "key: value" lines, keys lower-cased and trimmed; the first of a key wins. */
function keyValues(text: string): Map<string, string> {
  const fields = new Map<string, string>()
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':')
    if (colon < 1 || colon > 80) continue
    const key = line.slice(0, colon).trim().toLowerCase()
    if (key && !fields.has(key)) fields.set(key, line.slice(colon + 1).trim())
  }
  return fields
}

/** "49.59 Wh", "5103", "57,5 Wh": the leading number. */
function decimal(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  const match = /^([0-9]{1,7}(?:[.,][0-9]{1,6})?)(?:\s*[A-Za-z]{1,4})?$/.exec(text.trim())
  if (!match?.[1]) return undefined
  const value = Number(match[1].replace(',', '.'))
  return Number.isFinite(value) ? value : undefined
}

// ---------------------------------------------------------------------------------------------
// Dates: ISO (2026-11-12 14:03:27), `date`'s default (Thu Nov 12 14:03:27 UTC 2026) and upower's
// (Thu 12 Nov 2026 02:03:27 PM CET). The day is what is kept; times without a zone are taken as UTC.
// ---------------------------------------------------------------------------------------------

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']

export function findDate(text: string): Date | undefined {
  const s = text.slice(0, 200)
  let y: number | undefined
  let m: number | undefined
  let d: number | undefined
  let time = '00:00:00'
  const iso = /\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}:\d{2}))?/.exec(s)
  if (iso) {
    y = Number(iso[1])
    m = Number(iso[2])
    d = Number(iso[3])
    time = iso[4] ?? time
  } else {
    const month = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*'
    const dayFirst = new RegExp(`\\b(\\d{1,2}) ${month} (\\d{4})\\b`, 'i').exec(s)
    const monthFirst = new RegExp(
      `\\b${month} +(\\d{1,2}) (?:[0-9:]{8} (?:[A-Z]{2,5} )?)?(\\d{4})\\b`,
      'i',
    ).exec(s)
    const slashed = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/.exec(s)
    if (dayFirst) {
      d = Number(dayFirst[1])
      m = MONTHS.indexOf((dayFirst[2] ?? '').toLowerCase()) + 1
      y = Number(dayFirst[3])
    } else if (monthFirst) {
      m = MONTHS.indexOf((monthFirst[1] ?? '').toLowerCase()) + 1
      d = Number(monthFirst[2])
      y = Number(monthFirst[3])
    } else if (slashed) {
      // powercfg in a US locale: month/day/year.
      m = Number(slashed[1])
      d = Number(slashed[2])
      y = Number(slashed[3])
    }
    const clock = /\b(\d{2}:\d{2}:\d{2})\b/.exec(s)
    if (clock?.[1]) time = clock[1]
  }
  if (!y || !m || !d || m < 1 || m > 12 || d < 1 || d > 31) return undefined
  const date = new Date(`${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}T${time}Z`)
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== d) return undefined
  return date
}

// ---------------------------------------------------------------------------------------------

function finish(
  source: BatteryReportSource,
  design: number,
  full: number,
  unit: ParsedBatteryReport['unit'],
  cycles: number | null,
  reportDate: Date,
  now: Date,
  how: string,
): ParsedBatteryReport {
  if (!(design > 0)) throw new BatteryReportError(`The report gives no design capacity above zero: ${how}`)
  if (full > design * MAX_OVER_DESIGN) {
    throw new BatteryReportError(
      'The report says the battery holds more than 10% above its design capacity, which no real battery does: upload the report unedited',
    )
  }
  // New cells often read slightly over design: that is 100%.
  const healthPct = Math.min(100, Math.round((full / design) * 100))
  if (healthPct < 1) {
    throw new BatteryReportError(
      'The report shows a battery that holds no charge: list the laptop without a battery figure and say so in the description',
    )
  }
  if (cycles !== null && cycles > MAX_CYCLES) {
    throw new BatteryReportError(
      `The report gives ${cycles} charge cycles, more than any laptop battery lasts`,
    )
  }
  if (reportDate.getTime() > now.getTime() + 36 * 3_600_000) {
    throw new BatteryReportError(
      'The report is dated in the future: check the laptop’s clock and make it again',
    )
  }
  if (reportDate.getUTCFullYear() < 2010) {
    throw new BatteryReportError(
      'The report’s date is not believable: check the laptop’s clock and make it again',
    )
  }
  return {
    source,
    designCapacity: unit === '%' ? null : design,
    fullCapacity: unit === '%' ? null : full,
    unit,
    healthPct,
    cycles,
    reportDate,
  }
}

function clip(text: string): string {
  return text.length > 20 ? `${text.slice(0, 20)}…` : text
}
