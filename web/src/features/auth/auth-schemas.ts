import { z } from 'zod'
import { PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH } from '#contract/passwords'

/** The seed's client-side messages, word for word. */
export const AUTH_MESSAGES = {
  emailRequired: 'Email Address is required',
  emailInvalid: 'Enter a valid email address',
  passwordRequired: PASSWORD_MESSAGES.required,
  passwordShort: PASSWORD_MESSAGES.short,
  nameRequired: 'Name is required',
  roleRequired: 'User role is required',
} as const

const email = z
  .string()
  .trim()
  .min(1, AUTH_MESSAGES.emailRequired)
  .pipe(z.email({ message: AUTH_MESSAGES.emailInvalid }))

// `abort`: an empty password shows only "required", not "required" and then "too short".
const password = z
  .string()
  .min(1, { message: AUTH_MESSAGES.passwordRequired, abort: true })
  .min(PASSWORD_MIN_LENGTH, AUTH_MESSAGES.passwordShort)

export const LoginForm = z.object({ email, password })
export type LoginForm = z.infer<typeof LoginForm>

export const SignupForm = z.object({
  name: z.string().trim().min(1, AUTH_MESSAGES.nameRequired).max(100, 'Keep the name under 100 characters'),
  email,
  password: password.max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.long),
  role: z.enum(['buyer', 'seller'], { message: AUTH_MESSAGES.roleRequired }),
})
export type SignupForm = z.infer<typeof SignupForm>

export const ForgotPasswordForm = z.object({ email })
export type ForgotPasswordForm = z.infer<typeof ForgotPasswordForm>

export const ResetPasswordForm = z
  .object({
    password: password.max(PASSWORD_MAX_LENGTH, PASSWORD_MESSAGES.long),
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'The two passwords do not match' })
export type ResetPasswordForm = z.infer<typeof ResetPasswordForm>
