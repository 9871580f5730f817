// Every kind of email, by name. To add one: a file beside this one (`defineEmail` with its data type, its
// topic or null when essential, and `compose` for the text and HTML parts), and a line here.
import type { EmailTemplate } from './layout'
import listingExpiring from './listing-expiring'
import passwordReset from './password-reset'
import verifyEmail from './verify-email'

export const TEMPLATES = {
  'password-reset': passwordReset,
  'verify-email': verifyEmail,
  'listing-expiring': listingExpiring,
} satisfies Record<string, EmailTemplate<never>>

export type TemplateName = keyof typeof TEMPLATES
export type TemplateData<K extends TemplateName> =
  (typeof TEMPLATES)[K] extends EmailTemplate<infer D> ? D : never
