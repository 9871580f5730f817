const DAY_MS = 86_400_000

const dayFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
})

/**
 * When the next payout runs, as sellers read it: "today at 00:00 UTC", "tomorrow at 14:30 UTC", "Mon, Nov 3 at
 * 00:00 UTC". Payouts run on a UTC schedule (PAYOUT_INTERVAL_SECONDS), so the day and time are UTC's, said so;
 * seconds show only on a schedule that has them (a few seconds apart, as on a test server).
 */
export function nextPayoutWords(iso: string, now: Date = new Date()): string {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return ''
  const days = Math.floor(at.getTime() / DAY_MS) - Math.floor(now.getTime() / DAY_MS)
  const day = days <= 0 ? 'today' : days === 1 ? 'tomorrow' : dayFormat.format(at)
  const time = at.toISOString().slice(11, at.getUTCSeconds() === 0 ? 16 : 19)
  return `${day} at ${time} UTC`
}
