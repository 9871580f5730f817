// Front door of the users module (docs/decisions/0054): what the rest of the server may use of it.
// Accounts as the admins manage them, and the admin command line's password account.

export {
  type DemoAccount,
  demoAccountsRefusal,
  findDemoAccounts,
  REMOVE_DEMO_COMMAND,
  removeDemoAccounts,
} from './demo-accounts'
export { upsertPasswordAccount } from './users.accounts'
export { userRoutes } from './users.routes'
