// How a user hears about their alerts, without the schemas (favourites.ts): pages that only offer the choice import this.

/** How a user hears about their alerts: an email at once (grouped), one daily digest, or not at all. */
export const ALERT_CHOICES = ['instant', 'daily', 'off'] as const
export type AlertChoice = (typeof ALERT_CHOICES)[number]

export const ALERT_LABELS: Record<AlertChoice, string> = {
  instant: 'Email me at once',
  daily: 'Daily digest',
  off: 'No emails',
}
