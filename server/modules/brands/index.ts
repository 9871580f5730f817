// Front door of the brands module (docs/decisions/0054): what the rest of the server may use of it.
// Brands (the categories) and their pages' data.
export { brandRoutes } from './brands.routes'
export { findBrands, getBrand } from './brands.service'
