// Front door of the price-guide module (docs/decisions/0054): what the rest of the server may use of it.
// The price guide: what laptops like one sold for.
export { priceGuideRoutes } from './price-guide.routes'
export {
  getPriceGuide,
  refreshAllPriceGuides,
  refreshPriceGuideForProduct,
  registerPriceGuideJobs,
} from './price-guide.service'
