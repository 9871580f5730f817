// Front door of the finance module (docs/decisions/0054): what the rest of the server may use of it.
// The admins' Finance page.
export { financeRoutes } from './finance.routes'
