import { UsersTablePage } from './users-table-page'

export function AllSellersPage() {
  return <UsersTablePage kind="seller" />
}
