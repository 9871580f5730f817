// Front door of the reports module (docs/decisions/0054): what the rest of the server may use of it.
// Reports of listings, reviews and users, and what admins do about them.
export { reportRoutes } from './reports.routes'
