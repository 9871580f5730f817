// Front door of the favourites module (docs/decisions/0054): what the rest of the server may use of it.
// Favourite listings.
export { favouriteRoutes } from './favourites.routes'
