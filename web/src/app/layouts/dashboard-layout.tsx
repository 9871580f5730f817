import {
  BellRing,
  ChevronDown,
  ClipboardCheck,
  Flag,
  HandCoins,
  Heart,
  Landmark,
  LayoutDashboard,
  Mail,
  MessageCircleQuestion,
  MessagesSquare,
  Package,
  PackagePlus,
  Scale,
  ScrollText,
  ShieldCheck,
  ShoppingBag,
  Store,
  Undo2,
  Users,
  Wallet,
} from 'lucide-react'
import { type ComponentType, Suspense, useEffect, useId, useState } from 'react'
import { Link, NavLink, Outlet, useLocation } from 'react-router'
import { paths } from '#contract/pages'
import type { Role } from '#contract/users'
import { cn } from '../../components/ui/cn'
import { Spinner } from '../../components/ui/spinner'
import { useListingReviews } from '../../features/admin/listing-reviews-api'
import { useSession } from '../../features/auth/use-session'
import { useUnansweredQuestions } from '../../features/questions'
import { RouteErrorBoundary } from '../route-error'

type MenuItem = {
  to: string
  label: string
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean }>
}

/** The seed's menu by role, word for word, after an overview link every role shares. */
const MENU_BY_ROLE: Record<Role, readonly MenuItem[]> = {
  admin: [
    { to: '/dashboard/allbuyers', label: 'All Buyers', icon: Users },
    { to: '/dashboard/allsellers', label: 'All Sellers', icon: Store },
    { to: '/dashboard/reportedItems', label: 'Reported Items', icon: Flag },
    { to: '/dashboard/disputes', label: 'Disputes', icon: Scale },
    { to: paths.returns(), label: 'Returns', icon: Undo2 },
    { to: paths.listingReviews(), label: 'Listing reviews', icon: ClipboardCheck },
    { to: paths.finance(), label: 'Finance', icon: Landmark },
    { to: paths.auditLog(), label: 'Audit log', icon: ScrollText },
  ],
  buyer: [{ to: '/dashboard/myorders', label: 'My Orders', icon: ShoppingBag }],
  seller: [
    { to: '/dashboard/addproduct', label: 'Add a Product', icon: PackagePlus },
    { to: '/dashboard/myproduct', label: 'My Product', icon: Package },
    { to: paths.earnings(), label: 'Earnings', icon: Wallet },
  ],
}

const OVERVIEW: MenuItem = { to: '/dashboard', label: 'Overview', icon: LayoutDashboard }
const SETTINGS: MenuItem = { to: '/dashboard/settings', label: 'Email settings', icon: Mail }
const SECURITY: MenuItem = { to: paths.security(), label: 'Security', icon: ShieldCheck }
const FAVOURITES: MenuItem = { to: '/dashboard/favourites', label: 'Favourites', icon: Heart }
const SAVED_SEARCHES: MenuItem = { to: '/dashboard/saved-searches', label: 'Saved searches', icon: BellRing }
const MESSAGES: MenuItem = { to: '/dashboard/messages', label: 'Messages', icon: MessagesSquare }
const OFFERS: MenuItem = { to: '/dashboard/offers', label: 'Offers', icon: HandCoins }
const QUESTIONS: MenuItem = { to: paths.questions(), label: 'Questions', icon: MessageCircleQuestion }

const START_SELLING: MenuItem = { to: paths.startSelling(), label: 'Start selling', icon: Store }
const MY_ORDERS = MENU_BY_ROLE.buyer[0] as MenuItem

/**
 * The menu for the role; `buys` (a buyer who started selling) adds My Orders to a seller's, and a buyer is offered
 * Start selling.
 */
export function menuForRole(role: Role, buys = role === 'buyer'): readonly MenuItem[] {
  const offers = role === 'admin' ? [] : [OFFERS]
  const extra = role === 'buyer' ? [START_SELLING] : role === 'seller' && buys ? [MY_ORDERS] : []
  return [
    OVERVIEW,
    ...MENU_BY_ROLE[role],
    ...extra,
    ...offers,
    FAVOURITES,
    SAVED_SEARCHES,
    MESSAGES,
    QUESTIONS,
    SETTINGS,
    SECURITY,
  ]
}

function linkClasses({ isActive }: { isActive: boolean }) {
  return cn(
    'flex min-h-11 items-center gap-3 rounded-lg px-3 py-2 font-medium text-sm',
    isActive ? 'bg-accent-soft text-accent-ink' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  )
}

/** The admin's review queue on the menu: listings waiting, and how many of them are flagged for their serial. */
function ReviewQueueCount() {
  const queue = useListingReviews()
  const counts = queue.data?.counts
  if (!counts || counts.pending === 0) return null
  return (
    <span className="ml-auto flex items-center gap-1" data-testid="review-queue-count">
      <span className="rounded-full bg-amber-100 px-2 text-amber-900 text-xs leading-5">
        {counts.pending}
        <span className="sr-only"> waiting</span>
      </span>
      {counts.flagged > 0 ? (
        <span className="rounded-full bg-red-700 px-2 text-white text-xs leading-5">
          {counts.flagged}
          <span className="sr-only"> flagged</span>
        </span>
      ) : null}
    </span>
  )
}

/** Questions about the seller's listings waiting for an answer, beside Questions on the menu. */
function UnansweredCount() {
  const unanswered = useUnansweredQuestions()
  const count = unanswered.data?.count ?? 0
  if (count === 0) return null
  return (
    <span
      className="ml-auto rounded-full bg-amber-100 px-2 text-amber-900 text-xs leading-5"
      data-testid="unanswered-questions"
    >
      {count}
      <span className="sr-only"> unanswered</span>
    </span>
  )
}

/** Side menu and the dashboard page; below lg the menu folds behind a "Dashboard menu" button. */
export function DashboardLayout() {
  const { user } = useSession()
  const { pathname } = useLocation()
  const [isOpen, setIsOpen] = useState(false)
  const menuId = useId()

  // A chosen menu entry closes the phone menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose
  useEffect(() => setIsOpen(false), [pathname])

  const items = user ? menuForRole(user.role, user.buys) : [OVERVIEW]

  return (
    <div className="flex flex-col gap-6 lg:flex-row lg:items-start lg:gap-10">
      <aside className="lg:sticky lg:top-24 lg:w-60 lg:shrink-0">
        <nav aria-label="Dashboard" className="rounded-xl border border-slate-200 bg-white p-2">
          <button
            type="button"
            aria-expanded={isOpen}
            aria-controls={menuId}
            onClick={() => setIsOpen((open) => !open)}
            className="flex min-h-11 w-full items-center justify-between rounded-lg px-3 font-semibold text-slate-900 text-sm hover:bg-slate-50 lg:hidden"
          >
            Dashboard menu
            <ChevronDown
              aria-hidden="true"
              className={cn(
                'size-5 transition-transform motion-reduce:transition-none',
                isOpen && 'rotate-180',
              )}
            />
          </button>
          <p className="hidden px-3 pt-2 pb-3 text-slate-600 text-xs lg:block">
            Signed in as <span className="font-semibold text-slate-900">{user?.name}</span>
            <span className="block capitalize">
              {user?.role === 'seller' && user.buys ? 'Seller and buyer' : user?.role}
            </span>
          </p>
          <ul id={menuId} className={cn('space-y-1', isOpen ? 'mt-2 block' : 'hidden lg:block')}>
            {items.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end className={linkClasses}>
                  <item.icon aria-hidden className="size-5 shrink-0" />
                  {item.label}
                  {item.to === paths.listingReviews() ? <ReviewQueueCount /> : null}
                  {item === QUESTIONS && user?.role === 'seller' ? <UnansweredCount /> : null}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </aside>
      <div className="min-w-0 flex-1">
        {user?.password_change_asked && pathname !== paths.security() ? (
          <p
            role="status"
            className="mb-6 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-900 text-sm"
          >
            Your password is one anyone guessing would try early.{' '}
            <Link to={`${paths.security()}#password`} className="font-semibold underline">
              Change your password
            </Link>
          </p>
        ) : null}
        <RouteErrorBoundary resetKey={pathname}>
          <Suspense
            fallback={
              <div className="flex min-h-[40vh] items-center justify-center">
                <Spinner label="Loading page" />
              </div>
            }
          >
            <Outlet />
          </Suspense>
        </RouteErrorBoundary>
      </div>
    </div>
  )
}
