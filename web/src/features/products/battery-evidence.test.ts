import { describe, expect, it } from 'vitest'
import { batteryEvidenceText } from '../../components/product/product-status'
import { formatReportDay } from '../../lib/format'

describe('where a battery figure came from', () => {
  it('says a figure read from the report, and its day', () => {
    expect(
      batteryEvidenceText({
        battery_health_pct: 87,
        battery_verified: true,
        battery_report_date: `${new Date().getUTCFullYear()}-11-12T14:03:27.000Z`,
      }),
    ).toBe("Battery 87% — read from the seller's report file of 12 Nov")
  })

  it('never makes a typed figure look checked', () => {
    expect(
      batteryEvidenceText({ battery_health_pct: 87, battery_verified: false, battery_report_date: null }),
    ).toBe('Battery 87% — as typed by the seller, not checked')
    expect(
      batteryEvidenceText({ battery_health_pct: null, battery_verified: false, battery_report_date: null }),
    ).toBe('Battery not reported')
  })

  it('adds the year to a report of another year', () => {
    expect(formatReportDay('2025-11-12T00:00:00Z', new Date('2026-01-05T00:00:00Z'))).toBe('12 Nov 2025')
  })
})
