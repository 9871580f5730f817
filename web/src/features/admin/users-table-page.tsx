import { useState } from 'react'
import { useSearchParams } from 'react-router'
import type { UserRecord } from '#contract/users'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { DataTable } from '../../components/ui/data-table'
import { PageHeader } from '../../components/ui/page-header'
import { Pagination } from '../../components/ui/pagination'
import { SearchField } from '../../components/ui/search-field'
import { errorMessage } from '../../lib/api-client'
import { toast } from '../../lib/toast'
import { useSession } from '../auth/use-session'
import { type UserActions, userColumns } from './user-columns'
import {
  USERS_PAGE_SIZE,
  type UserKind,
  useDeleteUser,
  useMakeAdmin,
  useUserPage,
  useVerifySeller,
} from './users-api'

const TITLES: Record<UserKind, string> = { buyer: 'All Buyers', seller: 'All Sellers' }
const count = (n: number) => n.toLocaleString('en-US')

/** Reads `?q=&page=` so a search or page can be bookmarked, shared and reached with Back. */
function useListParams() {
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1)
  const hrefFor = (nextPage: number) => {
    const next = new URLSearchParams(params)
    if (nextPage > 1) next.set('page', String(nextPage))
    else next.delete('page')
    const qs = next.toString()
    return qs ? `?${qs}` : '?'
  }
  // A new search starts on page 1 and replaces the history entry, so Back skips the typing.
  const search = (nextQ: string) => {
    const next = new URLSearchParams(params)
    if (nextQ) next.set('q', nextQ)
    else next.delete('q')
    next.delete('page')
    setParams(next, { replace: true })
  }
  return { q, page, hrefFor, search }
}

/**
 * `/dashboard/allbuyers` and `/dashboard/allsellers`: one page of users at a time from the server, searchable
 * by name or email, with the admin's actions on each row.
 */
export function UsersTablePage({ kind }: { kind: UserKind }) {
  const { q, page, hrefFor, search } = useListParams()
  const { user: me } = useSession()
  const query = useUserPage(kind, q, page)
  const [toDelete, setToDelete] = useState<UserRecord | null>(null)
  const makeAdmin = useMakeAdmin()
  const verifySeller = useVerifySeller()
  const deleteUser = useDeleteUser(kind)

  const total = query.data?.total ?? 0
  const pageCount = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE))
  const first = total === 0 ? 0 : (page - 1) * USERS_PAGE_SIZE + 1
  const last = Math.min(page * USERS_PAGE_SIZE, total)
  const label = kind === 'buyer' ? 'Buyer' : 'Seller'

  const actions: UserActions = {
    onMakeAdmin: (user) =>
      makeAdmin.mutate(user, {
        onSuccess: (res) => {
          if (res.modifiedCount > 0) toast.success('Make Admin Successfully')
        },
        onError: (err) => toast.error(errorMessage(err)),
      }),
    onVerify: (user) =>
      verifySeller.mutate(user, {
        onSuccess: () => toast.success(`Seller ${user.name} is now verified`),
        onError: (err) => toast.error(errorMessage(err)),
      }),
    onDelete: setToDelete,
    busyId:
      (makeAdmin.isPending && makeAdmin.variables?._id) ||
      (verifySeller.isPending && verifySeller.variables?._id) ||
      null,
  }

  function onConfirmDelete() {
    if (!toDelete) return
    const user = toDelete
    deleteUser.mutate(user, {
      onSuccess: (res) => {
        if (res.deletedCount > 0) toast.success(`${label} ${res.name || user.name} deleted successfully`)
      },
      onError: (err) => toast.error(errorMessage(err)),
      onSettled: () => setToDelete(null),
    })
  }

  return (
    <>
      <title>{`${TITLES[kind]} · Laptop Market`}</title>
      <PageHeader title={TITLES[kind]} />

      <SearchField
        label={`Search ${kind}s by name or email`}
        value={q}
        onSearch={search}
        className="mb-4 max-w-md"
      />

      {query.isError ? (
        <Alert tone="error" title={`Could not load the ${kind}s`}>
          <p>{errorMessage(query.error)}</p>
          <Button variant="secondary" onClick={() => query.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <>
          <p className="mb-3 text-slate-600 text-sm" aria-live="polite">
            {query.isPending
              ? `Loading ${kind}s…`
              : total === 0
                ? q
                  ? `No ${kind}s match “${q}”.`
                  : `No ${kind}s yet.`
                : `Showing ${count(first)}–${count(last)} of ${count(total)} ${kind}s`}
          </p>
          <DataTable
            caption={TITLES[kind]}
            rows={query.data?.items}
            rowKey={(user) => user._id}
            columns={userColumns(kind, me?.id, actions)}
            isBusy={query.isPlaceholderData}
          />
          <Pagination page={page} pageCount={pageCount} hrefFor={hrefFor} className="mt-4" />
        </>
      )}

      {toDelete ? (
        <ConfirmDialog
          title="Are you sure you want to delete?"
          description={
            <p>
              {label} {toDelete.name} ({toDelete.email}) will no longer be able to sign in and their listings
              will be hidden. Bookings and payments stay on record.
            </p>
          }
          confirmLabel="Delete"
          cancelLabel="Cancel"
          isPending={deleteUser.isPending}
          onConfirm={onConfirmDelete}
          onCancel={() => setToDelete(null)}
        />
      ) : null}
    </>
  )
}
