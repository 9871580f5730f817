import {
  type AnchorHTMLAttributes,
  type ComponentType,
  createContext,
  type ReactNode,
  useContext,
} from 'react'

/**
 * How shared components link, read the address and read cached answers, without naming react-router or
 * React Query: the full app binds them to both (app/router-bindings.tsx), the home page to plain links and a
 * small cache (app/home-bindings.tsx), so `/` hydrates without either library in its first download.
 */

export type AnswerKey = readonly unknown[]

export type AnswerOptions<T> = {
  queryKey: AnswerKey
  queryFn: (context: { signal: AbortSignal }) => Promise<T>
  enabled?: boolean
  staleTime?: number
  retry?: boolean | number
  refetchInterval?: number
}

/** What a component reads of a cached answer; the same names, and the same narrowing, as React Query's result. */
export type Answer<T> = { isFetching: boolean; refetch: () => unknown } & (
  | { status: 'pending'; data: undefined; error: null; isPending: true; isError: false; isSuccess: false }
  | { status: 'error'; data: T | undefined; error: Error; isPending: false; isError: true; isSuccess: false }
  | { status: 'success'; data: T; error: null; isPending: false; isError: false; isSuccess: true }
)

/** Reads and changes cached answers outside rendering (after a sign-out, a saved favourite). */
export type AnswerCache = {
  getQueryData<T>(queryKey: AnswerKey): T | undefined
  setQueryData<T>(queryKey: AnswerKey, data: T): void
  /** Marks every answer under `queryKey` out of date; the ones on screen are asked again. */
  invalidateQueries(filters: { queryKey: AnswerKey }): Promise<void>
  clear(): void
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string }

export type NavLinkProps = Omit<LinkProps, 'className'> & {
  /** Active only on this very path, not below it. */
  end?: boolean
  className: string | ((state: { isActive: boolean }) => string)
}

export type Place = { pathname: string; search: string; hash: string }

export type Bindings = {
  Link: ComponentType<LinkProps>
  NavLink: ComponentType<NavLinkProps>
  useLocation: () => Place
  useNavigate: () => (to: string) => void
  useAnswer: <T>(options: AnswerOptions<T>) => Answer<T>
  useAnswerCache: () => AnswerCache
}

const BindingsContext = createContext<Bindings | null>(null)

export function BindingsProvider({ bindings, children }: { bindings: Bindings; children: ReactNode }) {
  return <BindingsContext.Provider value={bindings}>{children}</BindingsContext.Provider>
}

function useBindings(): Bindings {
  const bindings = useContext(BindingsContext)
  if (!bindings) throw new Error('No bindings: render inside <BindingsProvider>')
  return bindings
}

// A tree keeps one set of bindings for its lifetime, so calling the bound hooks keeps the order of hooks.

export function Link(props: LinkProps) {
  const { Link: BoundLink } = useBindings()
  return <BoundLink {...props} />
}

export function NavLink(props: NavLinkProps) {
  const { NavLink: BoundNavLink } = useBindings()
  return <BoundNavLink {...props} />
}

export function useLocation(): Place {
  return useBindings().useLocation()
}

export function useNavigate(): (to: string) => void {
  return useBindings().useNavigate()
}

export function useAnswer<T>(options: AnswerOptions<T>): Answer<T> {
  return useBindings().useAnswer(options)
}

export function useAnswerCache(): AnswerCache {
  return useBindings().useAnswerCache()
}
