// Front door of the offers module (docs/decisions/0054): what the rest of the server may use of it.
// Offers on a listing's price, and what ends them without either side acting.
export {
  closeOffersOffSale,
  closeOffersOnSale,
  offerLapsedOn,
  registerOfferJobs,
  waitingOfferCounts,
} from './offers.jobs'
export { offerRoutes } from './offers.routes'
