import { matchRoutes, type RouteObject } from 'react-router'
import { describe, expect, it } from 'vitest'
import { findPublicPage } from '../ssr/entry-server'
import { preloadableAt, ROUTES, routesFor } from './router'

/** Every path written in the routes, each parameter filled in, nested paths joined to their parents'. */
function declaredPaths(routes: RouteObject[], parent = ''): string[] {
  return routes.flatMap((route) => {
    const path = route.path ? `${parent}/${route.path.replace(/:\w+/g, 'a1b2')}` : parent
    return [path || '/', ...declaredPaths(route.children ?? [], path)]
  })
}

/** What the router renders for `path`: each matched route's id, with its parameters. */
const matched = (routes: RouteObject[], path: string) =>
  matchRoutes(routes, path)?.map((match) => [match.route.id, match.params])

describe('routesFor', () => {
  const paths = [
    ...declaredPaths(ROUTES),
    '/',
    '/nope',
    '/dashboard/nope',
    '/products',
    '/products/a1/b2',
    '/guides/not-a-guide',
    '/PRODUCTCARD',
    '/Products/A1',
    '/product%63ard',
    '/dashboard/',
    '/productcard/',
    '/%E0%A4%A',
    '/dashboard/products/a1/edit',
  ]

  it('offers every path the route it would match among all the routes', () => {
    expect(paths.length).toBeGreaterThan(60)
    for (const path of paths) expect(matched(routesFor(path), path), path).toEqual(matched(ROUTES, path))
  })

  it('gives the router a handful of routes, not all of them', () => {
    const count = (routes: RouteObject[]): number =>
      routes.reduce((sum, route) => sum + 1 + count(route.children ?? []), 0)
    expect(count(ROUTES)).toBeGreaterThan(50)
    expect(count(routesFor('/productcard'))).toBeLessThanOrEqual(3)
    expect(count(routesFor('/'))).toBeLessThanOrEqual(3)
    expect(count(routesFor('/products/a1'))).toBeLessThanOrEqual(3)
  })
})

describe('preloadableAt', () => {
  it('finds the code of every page the server renders, read from the routes, and of no page it leaves to the browser', () => {
    const pages = declaredPaths(ROUTES).filter((path) => !path.includes('*'))
    const rendered = pages.filter((path) => path !== '/' && findPublicPage(path, true) !== undefined)
    expect(rendered).toEqual(expect.arrayContaining(['/productcard', '/products/a1b2', '/guides', '/about']))
    expect(pages.filter((path) => preloadableAt(path) !== undefined)).toEqual(rendered)
    expect(preloadableAt('/login')).toBeUndefined()
    expect(preloadableAt('/dashboard/myorders')).toBeUndefined()
  })

  it('finds the not-found page for a path no route names', () => {
    expect(preloadableAt('/nope')).toBe(preloadableAt('/products/a1/b2'))
    expect(preloadableAt('/nope')).toBeDefined()
    expect(preloadableAt('/nope')).not.toBe(preloadableAt('/productcard'))
  })
})
