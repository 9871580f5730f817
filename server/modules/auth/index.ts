// Front door of the auth module (docs/decisions/0054): what the rest of the server may use of it.
// Sign-in, sign-up, resets and the second step.
export { authRoutes } from './auth.routes'
export { checkCurrentCode } from './current-code'
export { isStaleResetLink, resetTokenOf } from './reset-links'
export { createSignInLimiter } from './sign-in-limit'
export { STEP_UP_AUTH_PATHS } from './step-up'
