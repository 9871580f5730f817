import { useEffect, useId, useState } from 'react'
import { cn } from '../../components/ui/cn'
import { SpriteIcon } from '../../components/ui/sprite-icon'
import { useSession, useSignOut } from '../../features/auth/use-session'
import { useUnreadMessages } from '../../features/messages/unread-api'
import { NavbarSearch } from '../../features/search/navbar-search'
import { Link, NavLink, useLocation } from '../../lib/bindings'

const LINKS = [
  { to: '/', label: 'Home', end: true },
  { to: '/blog', label: 'Blog', end: false },
] as const

function linkClasses({ isActive }: { isActive: boolean }) {
  return cn(
    'block rounded-lg px-3 py-2 font-medium text-base md:text-sm',
    isActive ? 'text-accent' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  )
}

/** Site name and main links; below md the links fold behind a "Menu" button. */
export function Navbar() {
  const [isOpen, setIsOpen] = useState(false)
  const menuId = useId()
  const location = useLocation()
  const { user, isLoading: isSessionLoading } = useSession()
  const { signOut, isPending: isSigningOut } = useSignOut()

  // Close the phone menu once a link has taken the visitor somewhere.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose
  useEffect(() => setIsOpen(false), [location.pathname])

  useEffect(() => {
    if (!isOpen) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setIsOpen(false)
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [isOpen])

  return (
    <header className="sticky top-0 z-30 border-slate-200 border-b bg-white/95 backdrop-blur">
      <div className="mx-auto flex min-h-16 max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2.5 sm:px-6 md:flex-nowrap">
        <Link to="/" className="flex items-center gap-2 font-bold text-lg text-slate-900 tracking-tight">
          <span className="inline-flex size-8 items-center justify-center rounded-lg bg-accent text-white">
            <SpriteIcon name="laptop" className="size-5" />
          </span>
          Laptop Market
        </Link>

        {/* Phones: a full-width row under the site name and Menu; wider screens: between them. */}
        <NavbarSearch className="order-last w-full md:order-none md:max-w-md md:flex-1" />

        <nav aria-label="Main">
          <button
            type="button"
            aria-expanded={isOpen}
            aria-controls={menuId}
            onClick={() => setIsOpen((open) => !open)}
            className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 px-3 font-medium text-slate-800 text-sm hover:bg-slate-50 md:hidden"
          >
            {isOpen ? (
              <SpriteIcon name="x" className="size-5" />
            ) : (
              <SpriteIcon name="menu" className="size-5" />
            )}
            Menu
          </button>
          <ul
            id={menuId}
            className={cn(
              'absolute inset-x-0 top-full border-slate-200 border-b bg-white px-4 py-3 shadow-md',
              'md:static md:flex md:items-center md:gap-1 md:border-0 md:p-0 md:shadow-none',
              isOpen ? 'block' : 'hidden md:flex',
            )}
          >
            {LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.end} className={linkClasses}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            {user ? (
              <>
                <li>
                  <NavLink to="/dashboard" className={linkClasses}>
                    Dashboard
                  </NavLink>
                </li>
                <li>
                  <MessagesNavLink />
                </li>
                <li className="mt-2 md:mt-0 md:ml-2">
                  <button
                    type="button"
                    onClick={signOut}
                    disabled={isSigningOut}
                    className="block w-full rounded-lg border border-slate-300 px-4 py-2 text-center font-semibold text-base text-slate-900 hover:bg-slate-50 disabled:opacity-60 md:text-sm"
                  >
                    Sign Out
                  </button>
                </li>
              </>
            ) : (
              // Kept in place but unseen while the session loads, so a signed-in user never sees "Login" flash.
              <li className={cn('mt-2 md:mt-0 md:ml-2', isSessionLoading && 'invisible')}>
                <NavLink
                  to="/login"
                  className="block rounded-lg bg-accent px-4 py-2 text-center font-semibold text-base text-white hover:bg-accent-strong md:text-sm"
                >
                  Login
                </NavLink>
              </li>
            )}
          </ul>
        </nav>
      </div>
    </header>
  )
}

/** "Messages" with the number of unread messages, polled while the page is open. */
function MessagesNavLink() {
  const unread = useUnreadMessages()
  const count = unread.data?.count ?? 0
  return (
    <NavLink
      to="/dashboard/messages"
      className={(state) => cn(linkClasses(state), 'flex items-center gap-1.5')}
    >
      Messages
      {count > 0 ? (
        <span
          data-testid="unread-count"
          className="rounded-full bg-accent px-1.5 font-semibold text-white text-xs leading-5"
        >
          {count > 99 ? '99+' : count}
          <span className="sr-only"> unread</span>
        </span>
      ) : null}
    </NavLink>
  )
}
