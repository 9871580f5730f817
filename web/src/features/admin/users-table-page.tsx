import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import type { UserRecord } from '#contract/users'
import { LoadFailed } from '../../components/query-state'
import { buttonClasses } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { DataTable } from '../../components/ui/data-table'
import { PageHeader } from '../../components/ui/page-header'
import { Pagination } from '../../components/ui/pagination'
import { SearchField } from '../../components/ui/search-field'
import { errorMessage } from '../../lib/api-client'
import { formatCount, plural } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useSession } from '../auth'
import { type UserActions, userColumns } from './user-columns'
import {
  type BuyerRole,
  USERS_PAGE_SIZE,
  type UserKind,
  useDeleteUser,
  useMakeAdmin,
  useRemoveAdmin,
  useUserPage,
  useVerifySeller,
} from './users-api'

const TITLES: Record<UserKind, string> = { buyer: 'All Buyers', seller: 'All Sellers' }

/** Reads `?q=&page=` so a search or page can be bookmarked, shared and reached with Back. */
function useListParams() {
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const role: BuyerRole = params.get('role') === 'admin' ? 'admin' : 'buyer'
  const roleHref = (next: BuyerRole) => (next === 'admin' ? '?role=admin' : '?')
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
  return { q, page, hrefFor, search, role, roleHref }
}

/**
 * `/dashboard/allbuyers` and `/dashboard/allsellers`: one page of users at a time from the server, searchable
 * by name or email, with the admin's actions on each row.
 */
export function UsersTablePage({ kind }: { kind: UserKind }) {
  const { q, page, hrefFor, search, role, roleHref } = useListParams()
  const { user: me } = useSession()
  const query = useUserPage(kind, q, page, kind === 'buyer' ? role : undefined)
  const [toDelete, setToDelete] = useState<UserRecord | null>(null)
  const [question, setQuestion] = useState<{ kind: 'make' | 'remove'; user: UserRecord } | null>(null)
  const makeAdmin = useMakeAdmin()
  const removeAdmin = useRemoveAdmin()
  const verifySeller = useVerifySeller()
  const deleteUser = useDeleteUser(kind)

  const total = query.data?.total ?? 0
  const pageCount = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE))
  const first = total === 0 ? 0 : (page - 1) * USERS_PAGE_SIZE + 1
  const last = Math.min(page * USERS_PAGE_SIZE, total)
  const label = kind === 'buyer' ? 'Buyer' : 'Seller'
  // All Buyers lists its buyers and its admins apart, so its count matches the overview's.
  const noun = kind === 'buyer' && role === 'admin' ? 'admin' : kind

  function onConfirmRole() {
    if (!question) return
    const { kind: change, user } = question
    const mutation = change === 'make' ? makeAdmin : removeAdmin
    mutation.mutate(user, {
      onSuccess: (res) => {
        if (res.modifiedCount > 0) {
          toast.success(change === 'make' ? 'Make Admin Successfully' : `${user.name} is no longer an admin`)
        }
      },
      onError: (err) => toast.error(errorMessage(err)),
      onSettled: () => setQuestion(null),
    })
  }

  const actions: UserActions = {
    meId: me?.id,
    onMakeAdmin: (user) => setQuestion({ kind: 'make', user }),
    onRemoveAdmin: (user) => setQuestion({ kind: 'remove', user }),
    onVerify: (user) =>
      verifySeller.mutate(user, {
        onSuccess: () => toast.success(`Seller ${user.name} is now verified`),
        onError: (err) => toast.error(errorMessage(err)),
      }),
    onDelete: setToDelete,
    busyId:
      (makeAdmin.isPending && makeAdmin.variables?._id) ||
      (removeAdmin.isPending && removeAdmin.variables?._id) ||
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
      {kind === 'buyer' ? (
        <nav aria-label="Buyers or admins" className="mb-4 flex gap-2">
          {(['buyer', 'admin'] as const).map((r) => (
            <Link
              key={r}
              to={roleHref(r)}
              aria-current={role === r ? 'page' : undefined}
              className={buttonClasses(role === r ? 'primary' : 'secondary', 'sm')}
            >
              {r === 'buyer' ? 'Buyers' : 'Admins'}
            </Link>
          ))}
        </nav>
      ) : null}

      <SearchField
        label={`Search ${noun}s by name or email`}
        value={q}
        onSearch={search}
        className="mb-4 max-w-md"
      />

      {query.isError ? (
        <LoadFailed
          title={`Could not load the ${noun}s`}
          error={query.error}
          onRetry={() => query.refetch()}
        />
      ) : (
        <>
          <p className="mb-3 text-slate-600 text-sm" aria-live="polite">
            {query.isPending
              ? `Loading ${noun}s…`
              : total === 0
                ? q
                  ? `No ${noun}s match “${q}”.`
                  : `No ${noun}s yet.`
                : first === 1 && last === total
                  ? `Showing ${plural(total, noun)}`
                  : `Showing ${formatCount(first)}–${formatCount(last)} of ${plural(total, noun)}`}
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

      {question ? (
        <ConfirmDialog
          title={
            question.kind === 'make'
              ? `Make ${question.user.name} an admin?`
              : `Remove ${question.user.name} as an admin?`
          }
          description={
            <p>
              {question.kind === 'make'
                ? `${question.user.name} (${question.user.email}) will see every buyer, seller, report and dispute and can act on them. You can remove their admin role later.`
                : `${question.user.name} (${question.user.email}) goes back to being a buyer and loses the admin pages at once.`}
            </p>
          }
          tone="default"
          confirmLabel={question.kind === 'make' ? 'Make Admin' : 'Remove admin'}
          isPending={makeAdmin.isPending || removeAdmin.isPending}
          onConfirm={onConfirmRole}
          onCancel={() => setQuestion(null)}
        />
      ) : null}
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
