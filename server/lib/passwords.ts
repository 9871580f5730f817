import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common'
import type { BetterAuthPlugin } from 'better-auth'
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api'
import {
  type PasswordPerson,
  type PasswordProblem,
  passwordEstimator,
  passwordMessage,
  passwordProblem,
} from '#contract/passwords'

const estimate = passwordEstimator({ ZxcvbnFactory, dictionary, adjacencyGraphs })

/** Why this password is refused for this person (contract/passwords.ts), or null. */
export function passwordRefusal(password: string, person: PasswordPerson): PasswordProblem | null {
  return passwordProblem(password, person, estimate)
}

function refuse(password: unknown, person: PasswordPerson) {
  const message = passwordMessage(typeof password === 'string' ? password : '', person, estimate)
  if (message) throw new APIError('BAD_REQUEST', { message, code: 'WEAK_PASSWORD' })
}

/**
 * The password rule at every way a password is set through the auth library: sign-up (the name and email
 * typed), a reset (the account the link was made for) and a change (the signed-in person). It runs before the
 * library's own length checks, so a short password gets the seed's message.
 */
export const passwordRules: BetterAuthPlugin = {
  id: 'password-rules',
  hooks: {
    before: [
      {
        matcher: (ctx) => ctx.path === '/sign-up/email',
        handler: createAuthMiddleware(async (ctx) => {
          const body = (ctx.body ?? {}) as Record<string, unknown>
          refuse(body.password, {
            name: typeof body.name === 'string' ? body.name : null,
            email: typeof body.email === 'string' ? body.email : null,
          })
        }),
      },
      {
        matcher: (ctx) => ctx.path === '/reset-password',
        handler: createAuthMiddleware(async (ctx) => {
          const body = (ctx.body ?? {}) as Record<string, unknown>
          let person: PasswordPerson = {}
          if (typeof body.token === 'string' && body.token) {
            const found = await ctx.context.internalAdapter.findVerificationValue(
              `reset-password:${body.token}`,
            )
            const user = found ? await ctx.context.internalAdapter.findUserById(found.value) : null
            if (user) person = { name: user.name, email: user.email }
          }
          refuse(body.newPassword, person)
        }),
      },
      {
        matcher: (ctx) => ctx.path === '/change-password',
        handler: createAuthMiddleware(async (ctx) => {
          const body = (ctx.body ?? {}) as Record<string, unknown>
          const session = await getSessionFromCtx(ctx)
          if (!session) return // the library answers 401
          refuse(body.newPassword, { name: session.user.name, email: session.user.email })
        }),
      },
    ],
  },
}
