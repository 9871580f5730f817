import { z } from 'zod'
import { AlertChoice } from './favourites'

// Saved searches: a /productcard search kept with its filters, the number of new matches since the owner last
// opened it, and an alert (instant, daily digest, or off) when a new laptop matches.

export const MAX_SAVED_SEARCHES = 50
export const SAVED_SEARCH_QUERY_MAX = 2000

export const NewSavedSearch = z.strictObject({
  /** The `/productcard` query string (with or without the leading `?`), e.g. `q=thinkpad&max_price=600`. */
  query: z
    .string({ error: 'Give the search to save' })
    .max(SAVED_SEARCH_QUERY_MAX, `A saved search must be at most ${SAVED_SEARCH_QUERY_MAX} characters`),
  alert: AlertChoice.default('instant'),
})
export type NewSavedSearch = z.input<typeof NewSavedSearch>

export const SavedSearchAlertUpdate = z.strictObject({ alert: AlertChoice })

export const SavedSearch = z.object({
  _id: z.string(),
  /** The filters as a `/productcard` query string (paging left out), in a stable order. */
  query: z.string(),
  /** What it looks for, in words: "thinkpad · Dell · Good · up to $600". */
  label: z.string(),
  alert: AlertChoice,
  createdAt: z.string(),
  /** When its owner last opened it from their saved searches. */
  lastVisitedAt: z.string(),
  /** Laptops posted since then that match it and are still for sale (at most 100: "99+"). */
  newCount: z.number().int(),
})
export type SavedSearch = z.infer<typeof SavedSearch>
export const SavedSearchList = z.array(SavedSearch)

/** Opening a saved search: the listings posted after `since` are its new ones; the visit moves it to now. */
export const SavedSearchVisit = z.object({ since: z.string(), query: z.string() })
export type SavedSearchVisit = z.infer<typeof SavedSearchVisit>

/** The longest a new-match count goes before it is shown as "99+". */
export const NEW_COUNT_CAP = 100

// ---------------------------------------------------------------------------------------------
// Unsubscribing from an alert email without signing in: a signed token names what to turn off.
// ---------------------------------------------------------------------------------------------

export const UnsubscribeParams = z.strictObject({
  token: z
    .string({ error: 'This unsubscribe link is not valid' })
    .max(400, 'This unsubscribe link is not valid'),
})

/** What the link turns off, as the confirmation page shows it. */
export const UnsubscribeInfo = z.object({
  kind: z.enum(['search', 'favourites', 'digest']),
  /** "New laptops matching “thinkpad · up to $600”". */
  description: z.string(),
  /** Already off: confirming changes nothing. */
  alreadyOff: z.boolean(),
})
export type UnsubscribeInfo = z.infer<typeof UnsubscribeInfo>
