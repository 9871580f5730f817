// Front door of the account module (docs/decisions/0054): what the rest of the server may use of it.
// Signed-in people's own account: sessions, passkeys, two-step, export and erasure.
export { accountRoutes } from './account.routes'
