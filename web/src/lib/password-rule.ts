import { useEffect, useState } from 'react'
import {
  type EstimateGuesses,
  PASSWORD_MESSAGES,
  type PasswordPerson,
  passwordEstimator,
  passwordLengthProblem,
  passwordMessage,
} from '#contract/passwords'

let loading: Promise<EstimateGuesses> | undefined

/**
 * The password rule's word lists (zxcvbn and its common-password list, about 400 kB) load when a password is
 * first typed, never with the page; the same rule as the server's (contract/passwords.ts).
 */
export function loadPasswordRule(): Promise<EstimateGuesses> {
  loading ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) =>
      passwordEstimator({
        ZxcvbnFactory: core.ZxcvbnFactory,
        dictionary: common.dictionary,
        adjacencyGraphs: common.adjacencyGraphs,
      }),
  )
  loading.catch(() => {
    loading = undefined
  })
  return loading
}

/** Why the password would be refused, once the rule is loaded (a failed load leaves it to the server). */
export async function passwordRefusal(password: string, person: PasswordPerson): Promise<string | null> {
  try {
    return passwordMessage(password, person, await loadPasswordRule())
  } catch {
    const problem = passwordLengthProblem(password)
    return problem ? PASSWORD_MESSAGES[problem] : null
  }
}

/**
 * What to say under a new-password field while it is typed: why it would be refused (too common, built from the
 * name, email or the site's name, too long), or null. Too short is left to the form's own check on submit, so
 * the first letters typed are not met by an error.
 */
export function usePasswordAdvice(password: string, person: PasswordPerson): string | null {
  const [estimate, setEstimate] = useState<EstimateGuesses | null>(null)
  const isTyped = password.length > 0
  useEffect(() => {
    if (!isTyped || estimate) return
    let isLive = true
    loadPasswordRule().then(
      (loaded) => {
        if (isLive) setEstimate(() => loaded)
      },
      () => {},
    )
    return () => {
      isLive = false
    }
  }, [isTyped, estimate])
  if (!isTyped) return null
  const length = passwordLengthProblem(password)
  if (length === 'long') return PASSWORD_MESSAGES.long
  if (length || !estimate) return null
  return passwordMessage(password, person, estimate)
}
