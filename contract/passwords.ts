/**
 * The password rule, one home for the server (sign-up, reset, change, the check at sign-in) and the web app
 * (the message shown while typing). Length comes from the seed: 6 characters at least, its message word for
 * word. Beyond length, a password is refused when it is among the most common ones or built from the person's
 * name, email or the product's name: how easy it is to guess is estimated by zxcvbn with the common-password
 * list its language package ships, passed in by the caller (this file imports zod only; the web app loads the
 * list when a password field is first used, the server at start).
 */

export const PASSWORD_MIN_LENGTH = 6
export const PASSWORD_MAX_LENGTH = 128

export const PASSWORD_MESSAGES = {
  required: 'Password is required',
  short: 'Password must be 6 character or longer',
  long: `Keep the password under ${PASSWORD_MAX_LENGTH} characters`,
  common:
    'This password is one of the most common ones (or a run like abcdef or 111111): it is among the first anyone guessing tries. Please choose another.',
  personal:
    'This password is built from your name or email: anyone who knows you would try it. Please choose another.',
  product:
    "This password is built from the site's name, Laptop Market: anyone guessing tries it. Please choose another.",
} as const

export type PasswordProblem = keyof typeof PASSWORD_MESSAGES

/** Whose password it is: what it must not be built from. */
export type PasswordPerson = { name?: string | null; email?: string | null }

/** The product's own words, which no password may be built from. */
const PRODUCT_WORDS = ['laptopmarket', 'laptop market', 'laptop', 'market']

/** Below this many guesses a password is among the most common ones (zxcvbn's estimate, about 2^17). */
export const COMMON_BELOW_GUESSES = 100_000
/** A password that uses the person's or the product's words is refused below this many guesses (about 2^33). */
export const PERSONAL_BELOW_GUESSES = 10_000_000_000

/** What zxcvbn answers that the rule reads. */
export type GuessEstimate = {
  guesses: number
  sequence: ReadonlyArray<{ pattern: string; dictionaryName?: string; matchedWord?: string; token: string }>
}
export type EstimateGuesses = (password: string, userInputs: string[]) => GuessEstimate

/** The zxcvbn-ts modules the rule is built from (`@zxcvbn-ts/core` and `@zxcvbn-ts/language-common`). */
export type ZxcvbnModules<Dictionary, Graphs> = {
  ZxcvbnFactory: new (options: {
    dictionary: Dictionary
    graphs: Graphs
    maxLength: number
    l33tMaxSubstitutions: number
  }) => { check(password: string, userInputs?: string[]): GuessEstimate }
  dictionary: Dictionary
  adjacencyGraphs: Graphs
}

/**
 * How much of a password is estimated: the first 32 characters. zxcvbn's look-alike (l33t) matching costs grow
 * fast with length (a 128-character `p@ssw0rd…` took a second of CPU); on 32 characters, with at most 16
 * look-alike swaps tried, the worst case measured stays under 40 ms. A longer password is judged by its start.
 */
export const PASSWORD_ESTIMATED_LENGTH = 32

/** An estimator from the loaded zxcvbn modules: the common-password and word lists, and keyboard layouts. */
export function passwordEstimator<Dictionary, Graphs>({
  ZxcvbnFactory,
  dictionary,
  adjacencyGraphs,
}: ZxcvbnModules<Dictionary, Graphs>) {
  const zxcvbn = new ZxcvbnFactory({
    dictionary,
    graphs: adjacencyGraphs,
    maxLength: PASSWORD_ESTIMATED_LENGTH,
    l33tMaxSubstitutions: 16,
  })
  const estimate: EstimateGuesses = (password, userInputs) => zxcvbn.check(password, userInputs)
  return estimate
}

/** The person's words: each part of the name and of the email's local part (3 letters or more), and the email. */
export function personalWords(person: PasswordPerson): string[] {
  const words = new Set<string>()
  const add = (word: string) => {
    const w = word.trim().toLowerCase()
    if (w.length >= 3) words.add(w)
  }
  const name = person.name ?? ''
  add(name)
  for (const part of name.split(/[\s.,'_-]+/)) add(part)
  const email = person.email ?? ''
  add(email)
  const local = email.split('@')[0] ?? ''
  add(local)
  for (const part of local.split(/[._+-]+/)) add(part)
  return [...words]
}

/** Length only: what the form can say before the word lists are loaded. */
export function passwordLengthProblem(password: string): PasswordProblem | null {
  if (password.length === 0) return 'required'
  if (password.length < PASSWORD_MIN_LENGTH) return 'short'
  if (password.length > PASSWORD_MAX_LENGTH) return 'long'
  return null
}

/** Why this password is refused for this person, or null when it may be used. */
export function passwordProblem(
  password: string,
  person: PasswordPerson,
  estimate: EstimateGuesses,
): PasswordProblem | null {
  const length = passwordLengthProblem(password)
  if (length) return length
  const personal = personalWords(person)
  const result = estimate(password, [...personal, ...PRODUCT_WORDS])
  const ownWords = result.sequence.filter(
    (m) => m.pattern === 'dictionary' && m.dictionaryName === 'userInputs' && m.token.length >= 3,
  )
  if (ownWords.length > 0 && result.guesses < PERSONAL_BELOW_GUESSES) {
    const isProduct = ownWords.some((m) => PRODUCT_WORDS.includes((m.matchedWord ?? m.token).toLowerCase()))
    const isPersonal = ownWords.some((m) => personal.includes((m.matchedWord ?? m.token).toLowerCase()))
    return isPersonal || !isProduct ? 'personal' : 'product'
  }
  if (result.guesses < COMMON_BELOW_GUESSES) return 'common'
  return null
}

/** The message for a refused password, or null. */
export function passwordMessage(
  password: string,
  person: PasswordPerson,
  estimate: EstimateGuesses,
): string | null {
  const problem = passwordProblem(password, person, estimate)
  return problem ? PASSWORD_MESSAGES[problem] : null
}
