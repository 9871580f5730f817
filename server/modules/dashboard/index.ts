// Front door of the dashboard module (docs/decisions/0054): what the rest of the server may use of it.
// The seller's dashboard.
export { dashboardRoutes } from './dashboard.routes'
