import { type ComponentType, isValidElement, lazy, type ReactNode } from 'react'
import {
  createRoutesFromElements,
  matchRoutes,
  type NonIndexRouteObject,
  Route,
  type RouteObject,
  useLocation,
  useRoutes,
} from 'react-router'
import { GUIDES } from '#contract/guides'
import type { Role } from '#contract/users'
import { HomePage } from '../features/home/home-page'
import { PublicLayout } from './layouts/public-layout'

/*
 * Only the home page ships in the first download; every other page loads its code on first visit.
 * Declarative routes rather than createBrowserRouter: the data router adds ~17 KB of gzip JS that
 * `/` cannot afford within its 90 KB budget, and these pages load their data with React Query.
 */

/**
 * A lazily loaded page that can also be loaded ahead: the browser loads the page the server rendered
 * before it hydrates, so the page hydrates with the state the server saw (not after the session answered).
 * Every page the server renders is declared with it, and only those (`preloadableAt`).
 */
function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined
  const preload = () =>
    load().then((component) => {
      loaded = component
      return component
    })
  const Lazy = lazy(() => preload().then((component) => ({ default: component })))
  // Called once per page at module level, so each page keeps one component identity.
  // biome-ignore lint/correctness/noComponentHookFactories: a module-level factory, not one per render
  function Page(props: P) {
    const Loaded = loaded
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />
  }
  return Object.assign(Page, { preload })
}

const BlogPage = lazyPage(() => import('../features/blog/blog-page').then((m) => m.BlogPage))
const BrowsePage = lazyPage(() => import('../features/products/browse-page').then((m) => m.BrowsePage))
const AdvertisePage = lazyPage(() =>
  import('../features/products/advertise-page').then((m) => m.AdvertisePage),
)
const CategoryPage = lazy(() =>
  import('../features/products/category-page').then((m) => ({ default: m.CategoryPage })),
)
const ProductDetailPage = lazyPage(() =>
  import('../features/products/product-detail-page').then((m) => m.ProductDetailPage),
)
const SellerPage = lazyPage(() => import('../features/products/seller-page').then((m) => m.SellerPage))
const AboutPage = lazyPage(() => import('../features/info/about-page').then((m) => m.AboutPage))
const ContactPage = lazyPage(() => import('../features/info/contact-page').then((m) => m.ContactPage))
const TermsPage = lazyPage(() => import('../features/info/terms-page').then((m) => m.TermsPage))
const PrivacyPage = lazyPage(() => import('../features/info/privacy-page').then((m) => m.PrivacyPage))
const LoginPage = lazy(() => import('../features/auth/login-page').then((m) => ({ default: m.LoginPage })))
const SignupPage = lazy(() => import('../features/auth/signup-page').then((m) => ({ default: m.SignupPage })))
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })),
)
const ResetPasswordPage = lazy(() =>
  import('../features/auth/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
)
const NotMePage = lazy(() => import('../features/auth/not-me-page').then((m) => ({ default: m.NotMePage })))
const EmailSettingsPage = lazy(() =>
  import('../features/settings/email-settings-page').then((m) => ({ default: m.EmailSettingsPage })),
)
const SecurityPage = lazy(() =>
  import('../features/settings/security-page').then((m) => ({ default: m.SecurityPage })),
)
const AuditLogPage = lazy(() =>
  import('../features/admin/audit-log-page').then((m) => ({ default: m.AuditLogPage })),
)
// The guard loads with the dashboard, not with the home page.
const RequireAuth = lazy(() =>
  import('../features/auth/require-auth').then((m) => ({ default: m.RequireAuth })),
)
const DashboardLayout = lazy(() =>
  import('./layouts/dashboard-layout').then((m) => ({ default: m.DashboardLayout })),
)
const OverviewPage = lazy(() =>
  import('../features/dashboard/overview-page').then((m) => ({ default: m.OverviewPage })),
)
const AllBuyersPage = lazy(() =>
  import('../features/admin/all-buyers-page').then((m) => ({ default: m.AllBuyersPage })),
)
const AllSellersPage = lazy(() =>
  import('../features/admin/all-sellers-page').then((m) => ({ default: m.AllSellersPage })),
)
const ReportedItemsPage = lazy(() =>
  import('../features/admin/reported-items-page').then((m) => ({ default: m.ReportedItemsPage })),
)
const ListingReviewsPage = lazy(() =>
  import('../features/admin/listing-reviews-page').then((m) => ({ default: m.ListingReviewsPage })),
)
const EarningsPage = lazy(() =>
  import('../features/earnings/earnings-page').then((m) => ({ default: m.EarningsPage })),
)
const FinancePage = lazy(() =>
  import('../features/admin/finance-page').then((m) => ({ default: m.FinancePage })),
)
const DisputesPage = lazy(() =>
  import('../features/admin/disputes-page').then((m) => ({ default: m.DisputesPage })),
)
const ReturnsPage = lazy(() =>
  import('../features/admin/returns-page').then((m) => ({ default: m.ReturnsPage })),
)
const AddProductPage = lazy(() =>
  import('../features/selling/add-product-page').then((m) => ({ default: m.AddProductPage })),
)
const MyProductsPage = lazy(() =>
  import('../features/selling/my-products-page').then((m) => ({ default: m.MyProductsPage })),
)
const EditProductPage = lazy(() =>
  import('../features/selling/edit-product-page').then((m) => ({ default: m.EditProductPage })),
)
const MyOrdersPage = lazy(() =>
  import('../features/buying/my-orders-page').then((m) => ({ default: m.MyOrdersPage })),
)
const PaymentPage = lazy(() =>
  import('../features/buying/payment-page').then((m) => ({ default: m.PaymentPage })),
)
const MessagesPage = lazy(() =>
  import('../features/messages/messages-page').then((m) => ({ default: m.MessagesPage })),
)
const ConversationPage = lazy(() =>
  import('../features/buying/conversation-page').then((m) => ({ default: m.ConversationPage })),
)
const OffersPage = lazy(() =>
  import('../features/offers/offers-page').then((m) => ({ default: m.OffersPage })),
)
const QuestionsPage = lazy(() =>
  import('../features/questions/questions-page').then((m) => ({ default: m.QuestionsPage })),
)
const OfferPage = lazy(() => import('../features/offers/offer-page').then((m) => ({ default: m.OfferPage })))
const FavouritesPage = lazy(() =>
  import('../features/favourites/favourites-page').then((m) => ({ default: m.FavouritesPage })),
)
const SavedSearchesPage = lazy(() =>
  import('../features/saved-searches/saved-searches-page').then((m) => ({ default: m.SavedSearchesPage })),
)
const UnsubscribePage = lazy(() =>
  import('../features/saved-searches/unsubscribe-page').then((m) => ({ default: m.UnsubscribePage })),
)
const AccountErasedPage = lazy(() =>
  import('../features/info/account-erased-page').then((m) => ({ default: m.AccountErasedPage })),
)
const StartSellingPage = lazy(() =>
  import('../features/selling/start-selling-page').then((m) => ({ default: m.StartSellingPage })),
)
const CheckInboxPage = lazy(() =>
  import('../features/auth/check-inbox-page').then((m) => ({ default: m.CheckInboxPage })),
)
const GuidesPage = lazyPage(() => import('../features/info/guides-page').then((m) => m.GuidesPage))
const GuidePage = lazyPage(() => import('../features/info/guides-page').then((m) => m.GuidePage))
const NotFoundPage = lazyPage(() =>
  import('../features/not-found/not-found-page').then((m) => m.NotFoundPage),
)

const ADMIN = ['admin'] as const
const SELLER = ['seller'] as const

function ForRoles({ roles, page }: { roles: readonly Role[]; page: ReactNode }) {
  return <RequireAuth roles={roles}>{page}</RequireAuth>
}

type Preloadable = { preload: () => Promise<unknown> }

/**
 * The page drawn at `pathname` when its code can be loaded ahead: a page declared with `lazyPage`, which is what a
 * page the server renders is (the home page aside, which ships with the first download). Read from the routes, so a
 * page's path is written once.
 */
export function preloadableAt(pathname: string): Preloadable | undefined {
  const element = matchRoutes(routesFor(pathname), pathname)?.at(-1)?.route.element
  const page = isValidElement(element) ? (element.type as Partial<Preloadable>) : undefined
  return typeof page?.preload === 'function' ? (page as Preloadable) : undefined
}

/** Loads the code of the page at `pathname` (the 404 page when `isNotFound`); the home page is eager. */
export async function preloadPage(pathname: string, isNotFound: boolean): Promise<void> {
  await (isNotFound ? NotFoundPage : preloadableAt(pathname))?.preload()
}

/** Every page's route, under the public frame. Made once: routes written as elements are read anew at each render. */
export const ROUTES: RouteObject[] = createRoutesFromElements(
  <Route element={<PublicLayout />}>
    <Route index element={<HomePage />} />
    <Route path="blog" element={<BlogPage />} />
    <Route path="productcard" element={<BrowsePage />} />
    <Route path="advertise" element={<AdvertisePage />} />
    <Route
      path="category/:id"
      element={
        <RequireAuth>
          <CategoryPage />
        </RequireAuth>
      }
    />
    <Route path="products/:id" element={<ProductDetailPage />} />
    <Route path="sellers/:id" element={<SellerPage />} />
    <Route path="login" element={<LoginPage />} />
    <Route path="signup" element={<SignupPage />} />
    <Route
      path="welcome"
      element={
        <RequireAuth>
          <CheckInboxPage />
        </RequireAuth>
      }
    />
    <Route path="account-erased" element={<AccountErasedPage />} />
    <Route path="forgot-password" element={<ForgotPasswordPage />} />
    <Route path="reset-password" element={<ResetPasswordPage />} />
    <Route path="account/not-me" element={<NotMePage />} />
    <Route path="about" element={<AboutPage />} />
    <Route path="contact" element={<ContactPage />} />
    <Route path="terms" element={<TermsPage />} />
    <Route path="privacy" element={<PrivacyPage />} />
    <Route path="guides" element={<GuidesPage />} />
    {/* One route per guide, so an unknown guide is the 404 page, as the server answers it. */}
    {GUIDES.map((guide) => (
      <Route key={guide.slug} path={`guides/${guide.slug}`} element={<GuidePage slug={guide.slug} />} />
    ))}
    <Route path="unsubscribe/:token" element={<UnsubscribePage />} />
    {/* Every dashboard page needs a session; the server refuses other roles' data anyway. */}
    <Route
      path="dashboard"
      element={
        <RequireAuth>
          <DashboardLayout />
        </RequireAuth>
      }
    >
      <Route index element={<OverviewPage />} />
      <Route path="allbuyers" element={<ForRoles roles={ADMIN} page={<AllBuyersPage />} />} />
      <Route path="allsellers" element={<ForRoles roles={ADMIN} page={<AllSellersPage />} />} />
      <Route path="reportedItems" element={<ForRoles roles={ADMIN} page={<ReportedItemsPage />} />} />
      <Route path="disputes" element={<ForRoles roles={ADMIN} page={<DisputesPage />} />} />
      <Route path="returns" element={<ForRoles roles={ADMIN} page={<ReturnsPage />} />} />
      <Route path="listing-reviews" element={<ForRoles roles={ADMIN} page={<ListingReviewsPage />} />} />
      <Route path="finance" element={<ForRoles roles={ADMIN} page={<FinancePage />} />} />
      <Route path="audit-log" element={<ForRoles roles={ADMIN} page={<AuditLogPage />} />} />
      <Route path="addproduct" element={<ForRoles roles={SELLER} page={<AddProductPage />} />} />
      <Route path="myproduct" element={<ForRoles roles={SELLER} page={<MyProductsPage />} />} />
      <Route path="earnings" element={<ForRoles roles={SELLER} page={<EarningsPage />} />} />
      <Route path="products/:id/edit" element={<ForRoles roles={SELLER} page={<EditProductPage />} />} />
      {/* Any signed-in person may book a laptop, so their orders and payments are theirs to see. */}
      <Route path="myorders" element={<MyOrdersPage />} />
      <Route path="start-selling" element={<StartSellingPage />} />
      <Route path="payment/:id" element={<PaymentPage />} />
      <Route path="settings" element={<EmailSettingsPage />} />
      <Route path="security" element={<SecurityPage />} />
      <Route path="favourites" element={<FavouritesPage />} />
      <Route path="saved-searches" element={<SavedSearchesPage />} />
      <Route path="messages" element={<MessagesPage />} />
      <Route path="messages/:id" element={<ConversationPage />} />
      <Route path="offers" element={<OffersPage />} />
      <Route path="offers/:id" element={<OfferPage />} />
      <Route path="questions" element={<QuestionsPage />} />
    </Route>
    {/* Unknown paths, including dashboard pages that do not exist. */}
    <Route path="*" element={<NotFoundPage />} />
  </Route>,
)

/**
 * The routes a path could match. react-router flattens and ranks all the routes it is given whenever it renders (fifty
 * here: 10–20 ms of a phone's main thread as a page hydrates, and again at every page change). A page's route
 * begins with a fixed word, so only the routes whose first word is the path's, and the catch-all, can match it: each
 * such set is made once, and the router is given it alone.
 */
export function routesFor(pathname: string): RouteObject[] {
  const segment = firstSegment(pathname)
  if (segment === '') return HOME_ROUTES
  return ROUTES_BY_SEGMENT.get(segment) ?? UNKNOWN_ROUTES
}

/** A path's first word as react-router compares it: decoded, in any case. */
function firstSegment(path: string): string {
  const segment = path.replace(/^\//, '').split('/')[0] ?? ''
  try {
    return decodeURIComponent(segment).toLowerCase()
  } catch {
    return segment.toLowerCase()
  }
}

const [FRAME_ROUTE] = ROUTES as [NonIndexRouteObject]
const PAGE_ROUTES = FRAME_ROUTE.children ?? []
/** A route's first word when it is fixed: not for a layout without a path, `*`, `:id` or an optional word. */
const fixedWordOf = (route: RouteObject) => {
  const word = /^\/?([^/*:?]+)(\/|$)/.exec(route.path ?? '')?.[1]
  return word === undefined ? undefined : firstSegment(word)
}
/** Offered for every path: the routes without a fixed first word (the catch-all), index routes aside. */
const OPEN_ROUTES = PAGE_ROUTES.filter((route) => !route.index && fixedWordOf(route) === undefined)
const framed = (routes: RouteObject[]): RouteObject[] => [
  { ...FRAME_ROUTE, children: [...routes, ...OPEN_ROUTES] },
]
const HOME_ROUTES = framed(PAGE_ROUTES.filter((route) => route.index))
const UNKNOWN_ROUTES = framed([])
const ROUTES_BY_SEGMENT = new Map<string, RouteObject[]>()
for (const word of new Set(PAGE_ROUTES.map(fixedWordOf))) {
  if (word !== undefined)
    ROUTES_BY_SEGMENT.set(word, framed(PAGE_ROUTES.filter((route) => fixedWordOf(route) === word)))
}

export function AppRoutes() {
  return useRoutes(routesFor(useLocation().pathname))
}
