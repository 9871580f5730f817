// What the alert emails carry: laptops, each with its price and address, ready to list.
import { formatMoney } from '#contract/money'
import { paths } from '#contract/pages'

export type AlertListing = { productId: string; name: string; priceCents: number; location: string }

export type AlertFavourite = {
  productId: string
  name: string
  kind: 'price_drop' | 'available'
  oldPriceCents: number | null
  priceCents: number
}

export type AlertSearch = {
  searchId: string
  label: string
  query: string
  listings: AlertListing[]
  more: number
}

export const listingItem = (l: AlertListing, siteUrl: string) => ({
  title: l.name,
  detail: `${formatMoney(l.priceCents)} · ${l.location}`,
  url: `${siteUrl}${paths.product(l.productId)}`,
})

export const favouriteItem = (f: AlertFavourite, siteUrl: string) => ({
  title: f.name,
  detail:
    f.kind === 'price_drop' && f.oldPriceCents !== null
      ? `Now ${formatMoney(f.priceCents)}, was ${formatMoney(f.oldPriceCents)}`
      : `Available again at ${formatMoney(f.priceCents)}`,
  url: `${siteUrl}${paths.product(f.productId)}`,
})

export const unsubscribeLink = (label: string, token: string, siteUrl: string) => ({
  label,
  url: `${siteUrl}${paths.unsubscribe(token)}`,
})

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
