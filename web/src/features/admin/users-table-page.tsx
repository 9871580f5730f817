import { BadgeCheck, ChevronLeft, ChevronRight, Search } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { toast } from 'react-hot-toast'
import { useSearchParams } from 'react-router'
import type { UserRecord } from '#contract/users'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { ConfirmDialog } from '../../components/ui/confirm-dialog'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { isApiError } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { useSession } from '../auth/use-session'
import {
  USERS_PAGE_SIZE,
  type UserKind,
  useDeleteUser,
  useMakeAdmin,
  useUserPage,
  useVerifySeller,
} from './users-api'

const SEARCH_DELAY_MS = 300

function errorMessage(err: unknown): string {
  return isApiError(err) ? err.message : 'Something went wrong. Please try again.'
}

/** Reads `?q=&page=` so a search or page can be bookmarked, shared and reached with Back. */
function useListParams() {
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1)
  const update = (next: { q?: string; page?: number }) => {
    const merged = new URLSearchParams(params)
    const nextQ = next.q ?? q
    const nextPage = next.page ?? page
    if (nextQ) merged.set('q', nextQ)
    else merged.delete('q')
    if (nextPage > 1) merged.set('page', String(nextPage))
    else merged.delete('page')
    setParams(merged, { replace: next.q !== undefined })
  }
  return { q, page, update }
}

const TITLES: Record<UserKind, string> = { buyer: 'All Buyers', seller: 'All Sellers' }

/**
 * `/dashboard/allbuyers` and `/dashboard/allsellers`: one page of users at a time from the server, searchable
 * by name or email, with the admin's actions on each row.
 */
export function UsersTablePage({ kind }: { kind: UserKind }) {
  const { q, page, update } = useListParams()
  const isWide = useMediaQuery('(min-width: 768px)')
  const [search, setSearch] = useState(q)
  const searchId = useId()
  const { user: me } = useSession()
  const query = useUserPage(kind, q, page)
  const [toDelete, setToDelete] = useState<UserRecord | null>(null)
  const makeAdmin = useMakeAdmin()
  const verifySeller = useVerifySeller()
  const deleteUser = useDeleteUser(kind)

  // Searching starts a short moment after typing stops, back on page 1.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text should restart the timer
  useEffect(() => {
    if (search.trim() === q) return
    const timer = window.setTimeout(() => update({ q: search.trim(), page: 1 }), SEARCH_DELAY_MS)
    return () => window.clearTimeout(timer)
  }, [search])

  const total = query.data?.total ?? 0
  const pageCount = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE))
  const first = total === 0 ? 0 : (page - 1) * USERS_PAGE_SIZE + 1
  const last = Math.min(page * USERS_PAGE_SIZE, total)
  const label = kind === 'buyer' ? 'Buyer' : 'Seller'

  function onMakeAdmin(user: UserRecord) {
    makeAdmin.mutate(user, {
      onSuccess: (res) => {
        if (res.modifiedCount > 0) toast.success('Make Admin Successfully')
      },
      onError: (err) => toast.error(errorMessage(err)),
    })
  }

  function onVerify(user: UserRecord) {
    verifySeller.mutate(user, {
      onSuccess: () => toast.success(`Seller ${user.name} is now verified`),
      onError: (err) => toast.error(errorMessage(err)),
    })
  }

  function onConfirmDelete() {
    if (!toDelete) return
    const user = toDelete
    deleteUser.mutate(user, {
      onSuccess: (res) => {
        if (res.deletedCount > 0) toast.success(`${label} ${res.name || user.name} deleted successfully`)
        setToDelete(null)
      },
      onError: (err) => {
        toast.error(errorMessage(err))
        setToDelete(null)
      },
    })
  }

  const busyId =
    (makeAdmin.isPending && makeAdmin.variables?._id) ||
    (verifySeller.isPending && verifySeller.variables?._id) ||
    null
  const actions: RowActions = { onMakeAdmin, onVerify, onDelete: setToDelete, busyId }

  return (
    <>
      <title>{`${TITLES[kind]} · Laptop Market`}</title>
      <PageHeader title={TITLES[kind]} />

      <search className="mb-4 block max-w-md">
        <form
          onSubmit={(event) => {
            event.preventDefault()
            update({ q: search.trim(), page: 1 })
          }}
        >
          <label htmlFor={searchId} className="mb-1.5 block font-medium text-slate-800 text-sm">
            Search {kind}s by name or email
          </label>
          <div className="relative">
            <Search
              aria-hidden="true"
              className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-5 text-slate-500"
            />
            <input
              id={searchId}
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              className="block min-h-11 w-full rounded-lg border border-slate-300 bg-white py-2 pr-3 pl-10 text-base text-slate-900 focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30"
            />
          </div>
        </form>
      </search>

      {query.isError ? (
        <Alert tone="error" title={`Could not load the ${kind}s`}>
          <p>{query.error.message}</p>
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
                : `Showing ${first.toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} ${kind}s`}
          </p>
          {isWide ? (
            <UsersTable
              kind={kind}
              users={query.data?.items}
              meId={me?.id}
              isFetching={query.isFetching}
              actions={actions}
            />
          ) : (
            <UsersCards kind={kind} users={query.data?.items} meId={me?.id} actions={actions} />
          )}

          {pageCount > 1 ? (
            <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-3">
              <Button
                variant="secondary"
                onClick={() => update({ page: page - 1 })}
                disabled={page <= 1 || query.isFetching}
              >
                <ChevronLeft aria-hidden="true" className="size-4" />
                Previous
              </Button>
              <p className="text-slate-700 text-sm">
                Page {page.toLocaleString('en-US')} of {pageCount.toLocaleString('en-US')}
              </p>
              <Button
                variant="secondary"
                onClick={() => update({ page: page + 1 })}
                disabled={page >= pageCount || query.isFetching}
              >
                Next
                <ChevronRight aria-hidden="true" className="size-4" />
              </Button>
            </nav>
          ) : null}
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

type RowActions = {
  onMakeAdmin: (user: UserRecord) => void
  onVerify: (user: UserRecord) => void
  onDelete: (user: UserRecord) => void
  busyId: string | null
}

/** Whether a CSS media query matches now; re-renders when it changes. */
function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia?.(query).matches ?? true)
  useEffect(() => {
    const list = window.matchMedia?.(query)
    if (!list) return
    const onChange = () => setMatches(list.matches)
    onChange()
    list.addEventListener('change', onChange)
    return () => list.removeEventListener('change', onChange)
  }, [query])
  return matches
}

function VerifiedCell({ user, actions }: { user: UserRecord; actions: RowActions }) {
  return user.verified ? (
    <Badge tone="accent">
      <BadgeCheck aria-hidden="true" className="size-4" />
      Verified
    </Badge>
  ) : (
    <Button
      size="sm"
      variant="secondary"
      onClick={() => actions.onVerify(user)}
      disabled={actions.busyId === user._id}
      aria-label={`Verify ${user.name}`}
    >
      Verify
    </Button>
  )
}

function RowButtons({ kind, user, actions }: { kind: UserKind; user: UserRecord; actions: RowActions }) {
  return (
    <>
      {kind === 'buyer' && user.role !== 'admin' ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => actions.onMakeAdmin(user)}
          disabled={actions.busyId === user._id}
          aria-label={`Make Admin ${user.name}`}
        >
          Make Admin
        </Button>
      ) : null}
      <button
        type="button"
        onClick={() => actions.onDelete(user)}
        aria-label={`Delete ${user.name}`}
        className="inline-flex min-h-9 items-center rounded-lg border border-red-200 bg-white px-3 font-semibold text-red-700 text-sm hover:bg-red-50"
      >
        Delete
      </button>
    </>
  )
}

function UsersTable({
  kind,
  users,
  meId,
  isFetching,
  actions,
}: {
  kind: UserKind
  users: UserRecord[] | undefined
  meId: string | undefined
  isFetching: boolean
  actions: RowActions
}) {
  const columns = kind === 'seller' ? 6 : 5
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm" aria-busy={isFetching}>
        <caption className="sr-only">{TITLES[kind]}</caption>
        <thead className="border-slate-200 border-b bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Name
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Email
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Role
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Joined
            </th>
            {kind === 'seller' ? (
              <th scope="col" className="px-4 py-3 font-semibold">
                Verified
              </th>
            ) : null}
            <th scope="col" className="px-4 py-3 text-right font-semibold">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {!users
            ? [0, 1, 2, 3, 4].map((n) => (
                <tr key={n}>
                  <td colSpan={columns} className="px-4 py-3">
                    <Skeleton className="h-6 w-full" />
                  </td>
                </tr>
              ))
            : users.map((user) => (
                <tr key={user._id} className="align-middle">
                  <th scope="row" className="px-4 py-3 font-medium text-slate-900">
                    {user.name}
                    {user._id === meId ? (
                      <span className="ml-1 font-normal text-slate-600">(you)</span>
                    ) : null}
                  </th>
                  <td className="break-all px-4 py-3 text-slate-700">{user.email}</td>
                  <td className="px-4 py-3">
                    <Badge tone={user.role === 'admin' ? 'accent' : 'muted'}>{user.role}</Badge>
                  </td>
                  <td className="whitespace-nowrap px-4 py-3 text-slate-700">{formatDate(user.createdAt)}</td>
                  {kind === 'seller' ? (
                    <td className="px-4 py-3">
                      <VerifiedCell user={user} actions={actions} />
                    </td>
                  ) : null}
                  <td className="px-4 py-3">
                    <div className="flex justify-end gap-2">
                      <RowButtons kind={kind} user={user} actions={actions} />
                    </div>
                  </td>
                </tr>
              ))}
        </tbody>
      </table>
    </div>
  )
}

/** Phones: one card per user instead of a table too wide to read. */
function UsersCards({
  kind,
  users,
  meId,
  actions,
}: {
  kind: UserKind
  users: UserRecord[] | undefined
  meId: string | undefined
  actions: RowActions
}) {
  if (!users) {
    return (
      <ul className="space-y-3">
        {[0, 1, 2].map((n) => (
          <li key={n} className="rounded-xl border border-slate-200 bg-white p-4">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="mt-2 h-4 w-3/4" />
          </li>
        ))}
      </ul>
    )
  }
  return (
    <ul className="space-y-3" aria-label={TITLES[kind]}>
      {users.map((user) => (
        <li key={user._id} className="rounded-xl border border-slate-200 bg-white p-4">
          <div className="flex items-start justify-between gap-3">
            <p className="font-semibold text-slate-900">
              {user.name}
              {user._id === meId ? <span className="ml-1 font-normal text-slate-600">(you)</span> : null}
            </p>
            <Badge tone={user.role === 'admin' ? 'accent' : 'muted'}>{user.role}</Badge>
          </div>
          <p className="mt-1 break-all text-slate-700 text-sm">{user.email}</p>
          <p className="mt-1 text-slate-600 text-sm">Joined {formatDate(user.createdAt)}</p>
          <div className="mt-3 flex flex-wrap items-center gap-2">
            {kind === 'seller' ? <VerifiedCell user={user} actions={actions} /> : null}
            <RowButtons kind={kind} user={user} actions={actions} />
          </div>
        </li>
      ))}
    </ul>
  )
}
