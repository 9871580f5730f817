// Front door of the deal module (docs/decisions/0054): what the rest of the server may use of it.
// The deal's stages (the only writer of bookings.stage), a listing leaving sale, and a sale's refund; a return's
// statuses (the only writer of returns.status).
export { leaveSale } from './leave-sale'
export { refundCompletedSaleIn, refundSale } from './refund'
export {
  assertReturnMove,
  assertReturnParty,
  assertReturnStatus,
  canMoveReturn,
  moveReturn,
  moveReturnsOf,
  openReturnRow,
  RETURN_MOVES,
  type ReturnMove,
  type ReturnParty,
  returnMovesNow,
} from './return-moves'
export {
  assertDealParty,
  assertDelivery,
  assertMove,
  canMove,
  DEAL_MOVES,
  type DealMove,
  type DealParty,
  dealPartiesOf,
  moveDeal,
  stagesAwaiting,
} from './stages'
