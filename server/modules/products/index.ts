// Front door of the products module (docs/decisions/0054): what the rest of the server may use of it.
// Listings: their writing, photos, expiry, and how they are read.
export { registerExpiryJobs } from './expiry'
export { registerListingImagesJobs } from './listing-images'
export {
  findAdvertisedProducts,
  findProductById,
  findProductsWhere,
  isAvailable,
  LISTING_VERSIONS,
  productColumns,
  selectPageRows,
  toProduct,
  type Versions,
} from './products.queries'
export { productRoutes } from './products.routes'
