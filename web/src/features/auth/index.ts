// The auth feature as other features see it: import from here, never from a file inside it
// (biome.json's noRestrictedImports for web/src/features; docs/decisions/0048).

export { loginPathFrom } from './login-path'
export { passkeyErrorMessage } from './passkey-errors'
export { useOnceSessionKnown, useSession } from './use-session'
export { resendVerificationEmail } from './verification-email'

// RequireAuth (./require-auth) is the router's alone: it brings react-router, which the home page's first
// download leaves out, so it stays out of this file and app/router.tsx loads it lazily.
