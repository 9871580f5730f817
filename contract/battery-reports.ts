import { z } from 'zod'

// A battery report is the file the laptop itself writes about its battery. The server reads design capacity,
// full-charge capacity, cycle count and the report's date from it; the file stays private, its facts go public.

export const BATTERY_REPORT_SOURCES = ['windows', 'macos', 'linux'] as const
export const BatteryReportSource = z.enum(BATTERY_REPORT_SOURCES)
export type BatteryReportSource = z.infer<typeof BatteryReportSource>

/** Files above this are refused before they are read (a real report is well under 1 MB). */
export const BATTERY_REPORT_MAX_BYTES = 5 * 1024 * 1024

/** A report older than this many days, counted from its own date, is shown as old. */
export const BATTERY_REPORT_OLD_DAYS = 30

/** A typed health figure further than this from the report's is replaced by the report's. */
export const BATTERY_TYPED_TOLERANCE_PCT = 1

/** How to make each report, shown on the listing form word for word. */
export const BATTERY_REPORT_HOW_TO: { source: BatteryReportSource; system: string; steps: string }[] = [
  {
    source: 'windows',
    system: 'Windows',
    steps:
      'Open Command Prompt and run: powercfg /batteryreport /output "%USERPROFILE%\\battery-report.html" — then upload battery-report.html from your user folder, unedited.',
  },
  {
    source: 'macos',
    system: 'macOS',
    steps:
      'Open Terminal and run: (date -u +%Y-%m-%dT%H:%M:%SZ; system_profiler SPPowerDataType) > ~/battery-report.txt — then upload battery-report.txt from your home folder (the first line is the date of the report).',
  },
  {
    source: 'linux',
    system: 'Linux',
    steps:
      'Open a terminal and run: upower -i $(upower -e | grep BAT) > ~/battery-report.txt — then upload battery-report.txt from your home folder.',
  },
]

/** What the server read from an uploaded report. */
export const BatteryReportFacts = z.object({
  battery_health_pct: z.number().int(),
  battery_cycles: z.number().int().nullable(),
  /** The report's own date (ISO time). */
  report_date: z.string(),
  source: BatteryReportSource,
  /** The report is more than BATTERY_REPORT_OLD_DAYS days old. */
  report_is_old: z.boolean(),
  /** What changed on the listing that the seller should know (a typed figure replaced). */
  notices: z.array(z.string()),
})
export type BatteryReportFacts = z.infer<typeof BatteryReportFacts>

export function isBatteryReportOld(reportDate: Date | string, now = new Date()): boolean {
  return now.getTime() - new Date(reportDate).getTime() > BATTERY_REPORT_OLD_DAYS * 86_400_000
}

/**
 * For admins reviewing a listing: the report file behind its battery figures, as the seller uploaded it. The file
 * is not signed: a seller can type one by hand, so the figures say where they came from, not that they are true.
 */
export const BatteryReportFile = z.object({
  source: BatteryReportSource,
  file_name: z.string(),
  /** The date the file gives itself (ISO time). */
  report_date: z.string(),
  /** When the seller uploaded it (ISO time). */
  uploaded_at: z.string(),
  health_pct: z.number().int(),
  cycles: z.number().int().nullable(),
  /** The file's text as uploaded (a Windows report is HTML, shown as text). */
  content: z.string(),
})
export type BatteryReportFile = z.infer<typeof BatteryReportFile>
