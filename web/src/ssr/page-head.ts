import { plural } from '#contract/plural'
import type { Product } from '#contract/products'
import type { SellerPage } from '#contract/reviews'
import { GALLERY_SIZES, photoSrcSet } from '../components/product/product-image'
import { formatMoney, formatStorage } from '../lib/format'

/** What goes into `<head>` for one page: its own title, description, canonical URL and share tags. */
export type PageHead = {
  title: string
  description: string
  /** Absolute; leave undefined for pages that must not be indexed under another address (404). */
  canonical?: string
  robots?: string
  openGraph?: Record<string, string>
  jsonLd?: object[]
  /** Fetched at high priority before the page's scripts: the picture that is the page's largest paint. */
  preloadImage?: { href: string; srcset?: string; sizes?: string }
}

export const SITE_NAME = 'Laptop Market'
export const SITE_DESCRIPTION =
  'Laptop Market: used laptops from trusted sellers, graded honestly, paid for safely.'

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** JSON inside a <script>: `<` escaped so no text in it can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

export function absolute(origin: string, href: string): string {
  return new URL(href, origin).href
}

export function productDescription(product: Product): string {
  const specs = `${product.processor}, ${product.ram_gb} GB RAM, ${formatStorage(product.storage_gb)}, ${product.screen_inches}-inch`
  const status = product.sellStatus ? 'Sold' : `${formatMoney(product.resale_price_cents)}`
  const text = `${product.brand_name} ${product.name}: ${specs}. ${product.condition} condition, ${status}, in ${product.location}.`
  return text.length > 200 ? `${text.slice(0, 197)}…` : text
}

/** schema.org Product with one Offer, as search engines read a listing. */
export function productJsonLd(product: Product, origin: string): object {
  const url = absolute(origin, `/products/${product._id}`)
  const photos = product.images.length > 0 ? product.images.map((p) => p.detail) : [product.img]
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    '@id': url,
    name: product.name,
    description: product.description || productDescription(product),
    image: photos.map((p) => absolute(origin, p)),
    sku: product._id,
    brand: { '@type': 'Brand', name: product.brand_name },
    itemCondition: 'https://schema.org/UsedCondition',
    offers: {
      '@type': 'Offer',
      url,
      price: (product.resale_price_cents / 100).toFixed(2),
      priceCurrency: 'USD',
      itemCondition: 'https://schema.org/UsedCondition',
      availability: product.sellStatus ? 'https://schema.org/SoldOut' : 'https://schema.org/InStock',
      seller: { '@type': 'Person', name: product.seller_name },
    },
  }
}

export function productHead(product: Product, origin: string): PageHead {
  const url = absolute(origin, `/products/${product._id}`)
  const photo = product.images[0]?.detail ?? product.img
  const title = `${product.name} · ${SITE_NAME}`
  const description = productDescription(product)
  return {
    title,
    description,
    canonical: url,
    // Its seller's own view of a listing off sale for its review: never for a search engine.
    ...(product.review_state !== undefined && product.review_state !== 'approved'
      ? { robots: 'noindex' }
      : {}),
    openGraph: {
      'og:type': 'product',
      'og:site_name': SITE_NAME,
      'og:title': product.sellStatus ? `${product.name} (Sold)` : product.name,
      'og:description': description,
      'og:url': url,
      'og:image': absolute(origin, photo),
      'og:image:alt': product.name,
      'product:price:amount': (product.resale_price_cents / 100).toFixed(2),
      'product:price:currency': 'USD',
      'product:condition': 'used',
      'product:availability': product.sellStatus ? 'out of stock' : 'in stock',
      'twitter:card': 'summary_large_image',
      'twitter:title': product.name,
      'twitter:description': description,
      'twitter:image': absolute(origin, photo),
    },
    jsonLd: [productJsonLd(product, origin)],
    preloadImage: {
      href: photo,
      srcset: product.images[0] ? photoSrcSet(product.images[0]) : undefined,
      sizes: GALLERY_SIZES,
    },
  }
}

export function renderHead(head: PageHead): string {
  const tags: string[] = []
  // First in the head: the browser asks for the page's largest picture before its stylesheet and scripts.
  if (head.preloadImage) {
    const { href, srcset, sizes } = head.preloadImage
    tags.push(
      `<link rel="preload" as="image" href="${escapeHtml(href)}"${srcset ? ` imagesrcset="${escapeHtml(srcset)}"` : ''}${srcset && sizes ? ` imagesizes="${escapeHtml(sizes)}"` : ''} fetchpriority="high" />`,
    )
  }
  tags.push(
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
  )
  if (head.canonical) tags.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`)
  if (head.robots) tags.push(`<meta name="robots" content="${escapeHtml(head.robots)}" />`)
  for (const [key, value] of Object.entries(head.openGraph ?? {})) {
    const attr = key.startsWith('og:') || key.startsWith('product:') ? 'property' : 'name'
    tags.push(`<meta ${attr}="${key}" content="${escapeHtml(value)}" />`)
  }
  for (const data of head.jsonLd ?? [])
    tags.push(`<script type="application/ld+json">${scriptJson(data)}</script>`)
  return tags.join('\n    ')
}

/** A seller's page: their name, rating and how many laptops they have for sale. */
export function sellerHead(page: SellerPage, origin: string): PageHead {
  const { seller } = page
  const url = absolute(origin, `/sellers/${encodeURIComponent(seller._id)}`)
  const rating =
    page.count > 0 && page.average !== null
      ? `rated ${page.average.toFixed(1)} out of 5 from ${plural(page.count, 'review')}`
      : 'no reviews yet'
  const laptops = `${plural(page.products.length, 'laptop')} for sale`
  const title = `${seller.name}, seller · ${SITE_NAME}`
  const description = `${seller.name}${seller.verified ? ', a verified seller' : ''} on Laptop Market: ${rating}, ${laptops}.`
  return {
    title,
    description,
    canonical: url,
    openGraph: {
      'og:type': 'profile',
      'og:site_name': SITE_NAME,
      'og:title': title,
      'og:description': description,
      'og:url': url,
    },
  }
}
