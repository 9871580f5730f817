// Front door of the disputes module (docs/decisions/0054): what the rest of the server may use of it.
// The admins' disputes: a problem reported on a deal, refunded or released.
export { disputeRoutes } from './disputes.routes'
