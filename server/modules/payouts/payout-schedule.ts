// When payout runs happen: at each multiple of PAYOUT_INTERVAL_SECONDS since 1970-01-01 00:00 UTC (the
// default, a day, gives midnight UTC). The run's job is queued for this time, and Earnings tells sellers it.

/** The first scheduled run after `now`. */
export function nextPayoutRun(intervalSeconds: number, now: Date = new Date()): Date {
  const step = intervalSeconds * 1000
  return new Date((Math.floor(now.getTime() / step) + 1) * step)
}

/**
 * Whether a payout run waiting in the queue for `startsAt` fits the schedule as now set: one due already is
 * left to run (a run missed while no instance was up, or one a clock a moment ahead of ours reached), one
 * waiting for the next scheduled time is the one wanted; any other (queued under another interval) is not.
 */
export function fitsPayoutSchedule(startsAt: Date, intervalSeconds: number, now: Date = new Date()): boolean {
  return (
    startsAt.getTime() <= now.getTime() ||
    startsAt.getTime() === nextPayoutRun(intervalSeconds, now).getTime()
  )
}
