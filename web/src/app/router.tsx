import { lazy } from 'react'
import { Route, Routes } from 'react-router'
import { HomePage } from '../features/home/home-page'
import { PublicLayout } from './layouts/public-layout'

/*
 * Only the home page ships in the first download; every other page loads its code on first visit.
 * Declarative routes rather than createBrowserRouter: the data router adds ~17 KB of gzip JS that
 * `/` cannot afford within its 90 KB budget, and these pages load their data with React Query.
 */
const BlogPage = lazy(() => import('../features/blog/blog-page').then((m) => ({ default: m.BlogPage })))
const BrowsePage = lazy(() =>
  import('../features/products/browse-page').then((m) => ({ default: m.BrowsePage })),
)
const AdvertisePage = lazy(() =>
  import('../features/products/advertise-page').then((m) => ({ default: m.AdvertisePage })),
)
const CategoryPage = lazy(() =>
  import('../features/brands/category-page').then((m) => ({ default: m.CategoryPage })),
)
const ProductDetailPage = lazy(() =>
  import('../features/products/product-detail-page').then((m) => ({ default: m.ProductDetailPage })),
)
const AboutPage = lazy(() => import('../features/info/about-page').then((m) => ({ default: m.AboutPage })))
const ContactPage = lazy(() =>
  import('../features/info/contact-page').then((m) => ({ default: m.ContactPage })),
)
const TermsPage = lazy(() => import('../features/info/terms-page').then((m) => ({ default: m.TermsPage })))
const PrivacyPage = lazy(() =>
  import('../features/info/privacy-page').then((m) => ({ default: m.PrivacyPage })),
)
const NotFoundPage = lazy(() =>
  import('../features/not-found/not-found-page').then((m) => ({ default: m.NotFoundPage })),
)

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route index element={<HomePage />} />
        <Route path="blog" element={<BlogPage />} />
        <Route path="productcard" element={<BrowsePage />} />
        <Route path="advertise" element={<AdvertisePage />} />
        <Route path="category/:id" element={<CategoryPage />} />
        <Route path="products/:id" element={<ProductDetailPage />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="contact" element={<ContactPage />} />
        <Route path="terms" element={<TermsPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        {/* Unknown paths, including dashboard pages that do not exist. */}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  )
}
