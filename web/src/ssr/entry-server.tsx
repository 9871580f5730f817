/**
 * The server's half of the web app: renders a public page to HTML with its data already in it, and hands
 * the server the page's status, `<head>` tags and query cache. Built by `vite build --ssr` into
 * dist/server; the server passes in the data functions (its own services), so nothing here calls HTTP.
 */

import type { Writable } from 'node:stream'
import { dehydrate, QueryClient } from '@tanstack/react-query'
import { renderToPipeableStream } from 'react-dom/server'
import { matchPath, StaticRouter } from 'react-router'
import type { Brand } from '#contract/brands'
import { findGuide } from '#contract/guides'
import { paths } from '#contract/pages'
import type { Product } from '#contract/products'
import type { PublicQuestion } from '#contract/questions'
import type { SellerPage } from '#contract/reviews'
import type { SearchResult } from '#contract/search'
import { AppShell } from '../app/app'
import type { PageState } from '../app/page-state'
import { AppRoutes, preloadPage } from '../app/router'
import { SLIDE_SIZES, slideSrcSet } from '../features/home/slides'
import type { ProductFilters } from '../features/products/products-api'
import { readFilters, writeFilters } from '../features/products/search-params'
import { ApiError } from '../lib/api-client'
import { brandKeys, productKeys, questionKeys, reviewKeys } from '../lib/query-keys'
import { absolute, type PageHead, productHead, SITE_DESCRIPTION, SITE_NAME, sellerHead } from './page-head'

export { renderHead, scriptJson } from './page-head'
export type { PageHead }

/** How the server reads what pages show: the same service functions its API routes call. */
export type PageData = {
  brands(): Promise<Brand[]>
  advertised(): Promise<Product[]>
  /** `gone`: the listing existed and was taken down (410); undefined: never existed (404). */
  product(id: string): Promise<Product | 'gone' | undefined>
  /** A listing's public questions and answers (only asked for a listing `product` found). */
  questions(productId: string): Promise<PublicQuestion[]>
  search(filters: ProductFilters): Promise<SearchResult>
  /** A seller's public page; undefined for an unknown or deleted seller (404). */
  seller(id: string): Promise<SellerPage | undefined>
}

export type RenderedPage = {
  status: number
  head: PageHead
  /** Source modules of the page's own code (keys of Vite's manifest), to preload beside the entry. */
  modules: string[]
  /** What the browser starts from: the query cache, and which page this is. */
  state: PageState
  pipe(destination: Writable): void
}

type PublicPage = {
  path: string
  module?: string
  load?: (
    client: QueryClient,
    data: PageData,
    params: Record<string, string | undefined>,
    url: URL,
  ) => Promise<PageOutcome>
  head: (
    client: QueryClient,
    url: URL,
    origin: string,
    params: Record<string, string | undefined>,
  ) => PageHead
}

type PageOutcome = { status: number } | undefined

/** The full app (router, query cache, every route), which the entry loads for any page but `/`. */
const FULL_APP_MODULE = 'src/app/app.tsx'

const simpleHead =
  (title: string, description: string, path: string) =>
  (_: QueryClient, _url: URL, origin: string): PageHead => ({
    title: `${title} · ${SITE_NAME}`,
    description,
    canonical: absolute(origin, path),
  })

/** The public pages rendered on the server; every other page is left to the browser. */
const PAGES: PublicPage[] = [
  {
    path: '/',
    module: undefined,
    load: async (client, data) => {
      await Promise.all([
        client.prefetchQuery({ queryKey: productKeys.advertised(), queryFn: () => data.advertised() }),
        client.prefetchQuery({ queryKey: brandKeys.list(), queryFn: () => data.brands() }),
      ])
      return undefined
    },
    head: (_client, _url, origin) => ({
      title: `${SITE_NAME} · Used laptops, graded honestly`,
      description: SITE_DESCRIPTION,
      canonical: absolute(origin, '/'),
      openGraph: {
        'og:type': 'website',
        'og:site_name': SITE_NAME,
        'og:title': `${SITE_NAME} · Used laptops, graded honestly`,
        'og:description': SITE_DESCRIPTION,
        'og:url': absolute(origin, '/'),
        'og:image': absolute(origin, '/images/hero-1.webp'),
        'twitter:card': 'summary_large_image',
      },
      preloadImage: {
        href: '/images/hero-1.webp',
        srcset: slideSrcSet('/images/hero-1.webp'),
        sizes: SLIDE_SIZES,
      },
    }),
  },
  {
    path: '/productcard',
    module: 'src/features/products/browse-page.tsx',
    load: async (client, data, _params, url) => {
      const filters = readFilters(url.searchParams)
      await Promise.all([
        client.prefetchQuery({ queryKey: productKeys.search(filters), queryFn: () => data.search(filters) }),
        client.prefetchQuery({ queryKey: brandKeys.list(), queryFn: () => data.brands() }),
      ])
      return undefined
    },
    head: (client, url, origin) => {
      const filters = readFilters(url.searchParams)
      const query = writeFilters(filters).toString()
      const found = client.getQueryData<SearchResult>(productKeys.search(filters))
      const page = filters.page ?? 1
      // The first card's photo is the largest paint on a phone: fetched first, at high priority.
      const first = found?.items[0]
      const photo = first ? (first.images[0]?.card ?? first.img) : undefined
      return {
        ...(photo ? { preloadImage: { href: photo } } : {}),
        title: `All Laptops · ${SITE_NAME}`,
        description: found
          ? `${found.total} used laptops for sale on Laptop Market${page > 1 ? `, page ${page}` : ''}: condition, specs, price and seller on every card.`
          : SITE_DESCRIPTION,
        canonical: absolute(origin, `/productcard${query ? `?${query}` : ''}`),
      }
    },
  },
  {
    path: '/advertise',
    module: 'src/features/products/advertise-page.tsx',
    load: async (client, data) => {
      await client.prefetchQuery({ queryKey: productKeys.advertised(), queryFn: () => data.advertised() })
      return undefined
    },
    head: simpleHead(
      'Advertised Laptops',
      'Laptops our sellers are featuring right now, newest first, every one still for sale.',
      '/advertise',
    ),
  },
  {
    path: '/products/:id',
    module: 'src/features/products/product-detail-page.tsx',
    load: async (client, data, params) => {
      const id = params.id ?? ''
      const found = await data.product(id)
      if (found && found !== 'gone') {
        client.setQueryData(productKeys.detail(id), found)
        client.setQueryData(questionKeys.public(id), await data.questions(id))
        return undefined
      }
      // The page shows "Product not found" from this error, on the server and again in the browser.
      await client.prefetchQuery({
        queryKey: productKeys.detail(id),
        queryFn: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Product not found')),
        retry: false,
      })
      return { status: found === 'gone' ? 410 : 404 }
    },
    head: (client, _url, origin, params) => {
      const product = client.getQueryData<Product>(productKeys.detail(params.id ?? ''))
      if (product) return productHead(product, origin)
      return {
        title: `Product not found · ${SITE_NAME}`,
        description: 'This laptop is not listed any more.',
        robots: 'noindex',
      }
    },
  },
  {
    path: '/sellers/:id',
    module: 'src/features/products/seller-page.tsx',
    load: async (client, data, params) => {
      const id = params.id ?? ''
      const found = await data.seller(id)
      if (found) {
        client.setQueryData(reviewKeys.seller(id), found)
        return undefined
      }
      // The page shows "Seller not found" from this error, on the server and again in the browser.
      await client.prefetchQuery({
        queryKey: reviewKeys.seller(id),
        queryFn: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'Seller not found')),
        retry: false,
      })
      return { status: 404 }
    },
    head: (client, _url, origin, params) => {
      const page = client.getQueryData<SellerPage>(reviewKeys.seller(params.id ?? ''))
      if (page) return sellerHead(page, origin)
      return {
        title: `Seller not found · ${SITE_NAME}`,
        description: 'This seller is not on Laptop Market any more.',
        robots: 'noindex',
      }
    },
  },
  {
    path: '/blog',
    module: 'src/features/blog/blog-page.tsx',
    head: simpleHead(
      'Blog',
      'Guides to buying and selling used laptops: grading, specs, safe payment.',
      '/blog',
    ),
  },
  {
    path: '/about',
    module: 'src/features/info/about-page.tsx',
    head: simpleHead(
      'About Laptop Market',
      'Who runs Laptop Market and how it keeps buying a used laptop safe.',
      '/about',
    ),
  },
  {
    path: '/contact',
    module: 'src/features/info/contact-page.tsx',
    head: simpleHead('Contact us', 'How to reach the Laptop Market team.', '/contact'),
  },
  {
    path: '/terms',
    module: 'src/features/info/terms-page.tsx',
    head: simpleHead('Terms of Service', 'The terms for buying and selling on Laptop Market.', '/terms'),
  },
  {
    path: '/privacy',
    module: 'src/features/info/privacy-page.tsx',
    head: simpleHead('Privacy Policy', 'What Laptop Market keeps about you, and why.', '/privacy'),
  },
  {
    path: '/guides',
    module: 'src/features/info/guides-page.tsx',
    head: simpleHead('Guides', 'Short guides to judging, buying and selling a used laptop.', '/guides'),
  },
  {
    path: '/guides/:slug',
    module: 'src/features/info/guides-page.tsx',
    load: async (_client, _data, params) => (findGuide(params.slug) ? undefined : { status: 404 }),
    head: (_client, _url, origin, params) => {
      const guide = findGuide(params.slug)
      return guide
        ? {
            title: `${guide.title} · ${SITE_NAME}`,
            description: guide.summary,
            canonical: absolute(origin, paths.guide(guide.slug)),
          }
        : {
            title: `Page not found · ${SITE_NAME}`,
            description: 'There is no such guide.',
            robots: 'noindex',
          }
    },
  },
]

const NOT_FOUND: PublicPage = {
  path: '*',
  module: 'src/features/not-found/not-found-page.tsx',
  load: async () => ({ status: 404 }),
  head: () => ({
    title: `Page not found · ${SITE_NAME}`,
    description: 'The page you are looking for does not exist or has moved.',
    robots: 'noindex',
  }),
}

/** Which public page a path is: a known page, the 404 page (for `isPagePath` false), or none (browser-only). */
export function findPublicPage(pathname: string, isKnownPage: boolean) {
  for (const page of PAGES) {
    const match = matchPath({ path: page.path, end: true, caseSensitive: true }, pathname)
    if (match) return { page, params: match.params }
  }
  return isKnownPage ? undefined : { page: NOT_FOUND, params: {} }
}

/** Errors are carried as plain fields, since JSON drops an Error's message. */
function serializeError(error: unknown) {
  return error instanceof ApiError
    ? { status: error.status, code: error.code, message: error.message }
    : error
}

export function isServerRendered(pathname: string, isKnownPage: boolean): boolean {
  return findPublicPage(pathname, isKnownPage) !== undefined
}

export async function renderPage(options: {
  url: string
  origin: string
  isKnownPage: boolean
  data: PageData
  onError?: (error: unknown) => void
}): Promise<RenderedPage | undefined> {
  const url = new URL(options.url, options.origin)
  const found = findPublicPage(url.pathname, options.isKnownPage)
  if (!found) return undefined
  const { page, params } = found
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } })
  const [outcome] = await Promise.all([
    page.load?.(client, options.data, params, url),
    preloadPage(url.pathname, page === NOT_FOUND),
  ])
  const head = page.head(client, url, options.origin, params)
  const state = dehydrate(client, {
    shouldDehydrateQuery: () => true,
    serializeData: (data) => data,
  })
  for (const query of state.queries) {
    if (query.state.error) query.state.error = serializeError(query.state.error) as Error
  }

  // The status and head are known now, before React renders, so the server can send them at once.
  return {
    status: outcome?.status ?? 200,
    head,
    // The home page hydrates from the entry alone (app/home-app.tsx); every other page needs the full app too.
    modules: page.path === '/' ? [] : [FULL_APP_MODULE, ...(page.module ? [page.module] : [])],
    state: { queries: state, isNotFound: page === NOT_FOUND },
    pipe(destination) {
      const stream = renderToPipeableStream(
        <AppShell
          queryClient={client}
          router={
            <StaticRouter location={url.pathname + url.search}>
              <AppRoutes />
            </StaticRouter>
          }
        />,
        {
          // Everything at once rather than the shell first: a crawler and a browser without JavaScript
          // get the whole page. The data is already loaded, so this waits only for the page's own code.
          onAllReady: () => stream.pipe(destination),
          // React moves a large finished section to the end of the stream behind an inline script, which
          // the content security policy forbids and a browser without JavaScript never runs: never here.
          progressiveChunkSize: Number.MAX_SAFE_INTEGER,
          onShellError: (error) => destination.destroy(error as Error),
          onError: (error) => options.onError?.(error),
        },
      )
      setTimeout(() => stream.abort(), 10_000).unref()
    },
  }
}
