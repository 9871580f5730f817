// Front door of the saved-searches module (docs/decisions/0054): what the rest of the server may use of it.
// Saved searches.
export { savedSearchRoutes } from './saved-searches.routes'
