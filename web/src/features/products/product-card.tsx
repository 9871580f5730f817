import { memo, type ReactNode } from 'react'
import type { Product } from '#contract/products'
import { ProductImage } from '../../components/product/product-image'
import { ProductPrice } from '../../components/product/product-price'
import {
  BatteryHealth,
  isReserved,
  SaleStatusBadge,
  VerifiedSellerBadge,
} from '../../components/product/product-status'
import { SellerRatingLink } from '../../components/product/seller-rating'
import { Badge } from '../../components/ui/badge'
import { Skeleton } from '../../components/ui/skeleton'
import { SpriteIcon } from '../../components/ui/sprite-icon'
import { Link } from '../../lib/bindings'
import { formatDate, formatStorage, formatYearsOfUse } from '../../lib/format'
import { FavouriteButton } from '../favourites'
import { PriceGuideBadge } from './price-guide'

type ProductCardProps = {
  product: Product
  /** h2 under a page's h1, h3 under a section's h2. */
  headingLevel?: 2 | 3
  /** A control at the foot of the card (Book Now), above the link that covers the card. */
  action?: ReactNode
  /**
   * The photo loads at once (a card in the first screen), not when scrolled near: 'high' fetches it first (the
   * page's largest paint on a phone), 'eager' after the page's first picture and stylesheet (on a phone it is
   * below the first screen; from sm up it is beside the first card). Without it the photo loads when scrolled
   * near, at low priority even once on the screen: the browser would raise a visible photo to high and fetch it
   * beside the page's largest picture (the home page's slide), decision 0151.
   */
  imagePriority?: 'eager' | 'high'
  /** Marked "New": posted since the buyer last opened the saved search this page shows. */
  isNew?: boolean
}

/**
 * One listing in a grid: photo, name, specs, prices, condition, where, how old, when posted, who sells it.
 * Drawn again only when its own props change: a page that renders again (the session's answer, a saved search's
 * visit) keeps its 24 cards, since a listing the query cache kept is the same object. What a card shows of the
 * visitor (the heart) reads the session itself.
 */
export const ProductCard = memo(function ProductCard({
  product,
  headingLevel = 3,
  action,
  imagePriority,
  isNew,
}: ProductCardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const photo = product.images[0]?.card ?? product.img
  return (
    <article
      data-testid="product-card"
      className="group relative flex w-full flex-col rounded-xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md"
    >
      {/* Only the photo is clipped to the rounded corners: clipping the card would cut off the title link's
          focus ring (drawn around the whole card) and the price guide's tooltip. */}
      <div className="relative aspect-[4/3] overflow-hidden rounded-t-xl bg-slate-100">
        <ProductImage
          src={photo}
          alt={product.name}
          width={640}
          height={480}
          loading={imagePriority ? 'eager' : 'lazy'}
          fetchPriority={imagePriority === 'high' ? 'high' : 'low'}
          decoding="async"
          className="size-full object-cover"
        />
        <SaleStatusBadge
          isSold={product.sellStatus}
          isReserved={isReserved(product)}
          className="absolute top-3 left-3 shadow-sm"
        />
        {isNew ? (
          <span className="absolute bottom-3 left-3 rounded-full bg-accent px-2.5 py-1 font-semibold text-white text-xs shadow-sm">
            New
          </span>
        ) : null}
        {/* Above the link that covers the card. */}
        <FavouriteButton
          productId={product._id}
          productName={product.name}
          sellerId={product.seller_id}
          className="absolute top-2 right-2 z-10"
        />
      </div>

      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-center justify-between gap-2">
          <span className="truncate font-medium text-slate-600 text-xs uppercase tracking-wide">
            {product.brand_name}
          </span>
          <Badge tone="outline">
            <span className="sr-only">Condition: </span>
            {product.condition}
          </Badge>
        </div>

        <Heading className="font-semibold text-base text-slate-900 leading-snug">
          {/* The link covers the whole card so the photo is clickable too. */}
          <Link
            to={`/products/${product._id}`}
            className="after:absolute after:inset-0 after:content-[''] hover:text-accent focus-visible:outline-none focus-visible:after:rounded-xl focus-visible:after:outline-3 focus-visible:after:outline-accent"
          >
            {product.name}
          </Link>
        </Heading>

        <p className="text-slate-700 text-sm" data-testid="product-specs">
          <span className="sr-only">Specifications: </span>
          {product.processor} · {product.ram_gb} GB RAM · {formatStorage(product.storage_gb)} ·{' '}
          {product.screen_inches}-inch
        </p>

        <ProductPrice product={product}>
          <PriceGuideBadge product={product} />
        </ProductPrice>

        <ul className="space-y-1 text-slate-600 text-sm">
          <li className="flex items-center gap-2">
            <SpriteIcon name="map-pin" className="size-4 shrink-0" />
            <span className="truncate">{product.location}</span>
          </li>
          <li>
            <BatteryHealth
              healthPct={product.battery_health_pct}
              label={
                product.battery_verified && product.battery_health_pct !== null
                  ? `Battery ${product.battery_health_pct}% · from the seller's report file`
                  : undefined
              }
              className="flex items-center gap-2"
            />
          </li>
          <li className="flex items-center gap-2">
            <SpriteIcon name="clock" className="size-4 shrink-0" />
            {formatYearsOfUse(product.uses)}
          </li>
          <li className="flex items-center gap-2">
            <SpriteIcon name="calendar-days" className="size-4 shrink-0" />
            <span>
              Posted <time dateTime={product.postedOn}>{formatDate(product.postedOn)}</time>
            </span>
          </li>
        </ul>

        <div className="mt-auto flex flex-wrap items-center gap-2 border-slate-100 border-t pt-3 text-sm">
          <span className="text-slate-600">
            Seller <span className="font-medium text-slate-900">{product.seller_name}</span>
          </span>
          {product.seller_verified ? <VerifiedSellerBadge /> : null}
          {/* Above the link that covers the card, so it opens the seller's page. */}
          <SellerRatingLink
            sellerId={product.seller_id}
            rating={product.seller_rating}
            className="relative z-10"
          />
        </div>
        {action ? <div className="relative z-10">{action}</div> : null}
      </div>
    </article>
  )
})

export function ProductCardSkeleton() {
  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white">
      <Skeleton className="aspect-[4/3] rounded-none" />
      <div className="space-y-3 p-4">
        <Skeleton className="h-3 w-1/3" />
        <Skeleton className="h-5 w-3/4" />
        <Skeleton className="h-7 w-1/2" />
        <Skeleton className="h-16 w-full" />
      </div>
    </div>
  )
}
