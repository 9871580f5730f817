// Front door of the bookings module (docs/decisions/0054): what the rest of the server may use of it.
// Bookings and holds, the deal's handover and receipt, and the deal's emails.
export { bookingRoutes } from './bookings.routes'
export { bookingStatus, handoverAnswers, salesOfProducts } from './bookings.service'
export { dealSideOf, lockDeal, registerDealJobs, wrongStage } from './deal.service'
export { type DealMail, queueDealEmails } from './deal-emails'
export { holderOf } from './hold.service'
