import { useQuery, useQueryClient } from '@tanstack/react-query'
import {
  Link as RouterLink,
  NavLink as RouterNavLink,
  useLocation as useRouterLocation,
  useNavigate as useRouterNavigate,
} from 'react-router'
import type { AnswerOptions, Bindings, LinkProps, NavLinkProps } from '../lib/bindings'

function Link(props: LinkProps) {
  return <RouterLink {...props} />
}

function NavLink(props: NavLinkProps) {
  return <RouterNavLink {...props} />
}

/** The full app's bindings: react-router for links and the address, React Query for cached answers. */
export const routerBindings: Bindings = {
  Link,
  NavLink,
  useLocation: useRouterLocation,
  useNavigate: () => {
    const navigate = useRouterNavigate()
    return (to: string) => {
      navigate(to)
    }
  },
  useAnswer: <T,>(options: AnswerOptions<T>) => useQuery<T, Error>(options),
  useAnswerCache: useQueryClient,
}
