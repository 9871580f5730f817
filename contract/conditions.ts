// The grades a listing can carry, without the schemas: pages that only show or filter by a grade import this.

/** The grades a listing can carry, best first: the one list the schema, the server and the web app use. */
export const CONDITIONS = ['Excellent', 'Good', 'Fair'] as const
export type Condition = (typeof CONDITIONS)[number]

/** Measurable grades, shown beside the choice on the form and on the detail page. */
// (The battery minimum of each grade is BATTERY_MINIMUM_PCT in products.ts: the one place the server checks it.)
export const CONDITION_DEFINITIONS: Record<Condition, string> = {
  Excellent: "Fully working, no marks visible at arm's length, battery at least 85% of design capacity.",
  Good: 'Fully working, light marks, battery at least 75% of design capacity.',
  Fair: 'Fully working, visible wear or a weaker battery; each flaw is named in the description.',
}
