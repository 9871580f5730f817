import { UsersTablePage } from './users-table-page'

export function AllBuyersPage() {
  return <UsersTablePage kind="buyer" />
}
