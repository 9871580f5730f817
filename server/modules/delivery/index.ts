// Front door of the delivery module (docs/decisions/0054, 0074, 0075): how a sale travels when the buyer chose
// shipping — the rate and address at booking, the seller's label, and the ship-within rule.

export { buyShippingLabel } from './label'
export { labelRoutes } from './label.routes'
export { cancelLateShipments, registerShipLateJob } from './ship-late'
