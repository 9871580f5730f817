// Front door of the deal module (docs/decisions/0054): what the rest of the server may use of it.
// The deal's stages (the only writer of bookings.stage), a listing leaving sale, and a sale's refund.
export { leaveSale } from './leave-sale'
export { refundCompletedSaleIn, refundSale } from './refund'
export { assertDelivery, assertMove, canMove, moveDeal, stagesAwaiting } from './stages'
