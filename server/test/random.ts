/** The same draws on every run, for tests that try many cases. */
export { seededRandom as random } from '#server/lib/seeded-random'
