// Front door of the views module (docs/decisions/0054): what the rest of the server may use of it.
// Listing page views (counted through server/lib/view-counter.ts).
export { viewRoutes } from './views.routes'
