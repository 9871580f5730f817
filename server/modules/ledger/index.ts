// Front door of the ledger module (docs/decisions/0054): what the rest of the server may use of it.
// The double-entry ledger: postings, balances, its own check, and a seller's money as every page reads it.
export {
  balanceOf,
  ledgerCheck,
  ledgerIntegrity,
  postTransaction,
  rowsOf,
  sellerBalances,
} from './ledger'
export {
  hasReturnLabelMoney,
  postLabelMoney,
  postReturnLabelMoney,
  postSaleMoney,
  postUnpostedSales,
} from './sales'
export { marketMoney, payoutsOnItsWay, saleFigures, sellerMoney } from './seller-money'
