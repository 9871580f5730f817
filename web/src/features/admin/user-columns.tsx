import { BadgeCheck } from 'lucide-react'
import { plural } from '#contract/plural'
import type { UserRecord } from '#contract/users'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import type { Column } from '../../components/ui/data-table'
import { formatDate } from '../../lib/format'
import type { UserKind } from './users-api'

export type UserActions = {
  onMakeAdmin: (user: UserRecord) => void
  onRemoveAdmin: (user: UserRecord) => void
  /** The signed-in admin: no action on their own row, since the server refuses each one. */
  meId: string | undefined
  onVerify: (user: UserRecord) => void
  onDelete: (user: UserRecord) => void
  /** The user whose change is on its way to the server. */
  busyId: string | null
}

function VerifiedCell({ user, actions }: { user: UserRecord; actions: UserActions }) {
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

function RowButtons({ kind, user, actions }: { kind: UserKind; user: UserRecord; actions: UserActions }) {
  // The server refuses an admin's changes to their own account: offer none.
  if (user._id === actions.meId) return <span className="text-slate-600 text-sm">Your account</span>
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
      {kind === 'buyer' && user.role === 'admin' ? (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => actions.onRemoveAdmin(user)}
          disabled={actions.busyId === user._id}
          aria-label={`Remove admin ${user.name}`}
        >
          Remove admin
        </Button>
      ) : null}
      <Button
        size="sm"
        variant="danger-outline"
        onClick={() => actions.onDelete(user)}
        aria-label={`Delete ${user.name}`}
      >
        Delete
      </Button>
    </>
  )
}

/** The columns of All Buyers and All Sellers; sellers also have Verified. */
export function userColumns(
  kind: UserKind,
  meId: string | undefined,
  actions: UserActions,
): Column<UserRecord>[] {
  const columns: Column<UserRecord>[] = [
    {
      key: 'name',
      header: 'Name',
      card: 'title',
      cell: (user) => (
        <>
          {user.name}
          {user._id === meId ? <span className="font-normal text-slate-600"> (you)</span> : null}
        </>
      ),
    },
    { key: 'email', header: 'Email', className: 'break-all text-slate-700', cell: (user) => user.email },
    {
      key: 'role',
      header: 'Role',
      card: 'aside',
      cell: (user) => <Badge tone={user.role === 'admin' ? 'accent' : 'muted'}>{user.role}</Badge>,
    },
    {
      key: 'joined',
      header: 'Joined',
      className: 'whitespace-nowrap text-slate-700',
      cell: (user) => formatDate(user.createdAt),
    },
  ]
  if (kind === 'seller') {
    columns.push({
      key: 'cancelled',
      header: 'Cancelled sales',
      className: 'whitespace-nowrap text-slate-700',
      cell: (user) =>
        user.cancelled_sales ? (
          <Badge tone="warning">{plural(user.cancelled_sales, 'cancelled sale')}</Badge>
        ) : (
          'None'
        ),
    })
    columns.push({
      key: 'verified',
      header: 'Verified',
      card: 'actions',
      cell: (user) => <VerifiedCell user={user} actions={actions} />,
    })
  }
  columns.push({
    key: 'actions',
    header: 'Actions',
    card: 'actions',
    align: 'end',
    cell: (user) => <RowButtons kind={kind} user={user} actions={actions} />,
  })
  return columns
}
