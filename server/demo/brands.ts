// The demo brands. Logos come from simple-icons (CC0); a brand it does not carry gets a plain
// wordmark. Each logo is drawn as an SVG in the brand's colour on a transparent background and stored as a WebP
// (decision 0149).

import sharp from 'sharp'
import { siAcer, siApple, siAsus, siDell, siHp, siLenovo, siMsi, siSamsung } from 'simple-icons'
import type { BrandMark } from './laptop-art'
import { escapeXml } from './laptop-art'

export type DemoBrand = {
  /** Stable slug: the storage key and the seed of the brand's id. */
  slug: string
  name: string
  /** Logo colour. */
  hex: string
  mark: BrandMark
}

type Icon = { title: string; path: string; hex: string }

// Where each icon's ink sits inside its 24x24 box, measured once so logos can be centred.
function fromIcon(slug: string, icon: Icon, box: BrandMark['box'], hex = icon.hex): DemoBrand {
  return { slug, name: icon.title, hex: `#${hex}`, mark: { name: icon.title, path: icon.path, box } }
}

export const DEMO_BRANDS: readonly DemoBrand[] = [
  fromIcon('apple', siApple, { x: 2.2, y: 0, w: 19.6, h: 24 }, '1D1D1F'),
  fromIcon('dell', siDell, { x: 0, y: 0, w: 24, h: 24 }),
  fromIcon('hp', siHp, { x: 0, y: 0, w: 24, h: 24 }),
  fromIcon('lenovo', siLenovo, { x: 0, y: 7.95, w: 24, h: 8.1 }),
  fromIcon('asus', siAsus, { x: 0, y: 9.5, w: 24, h: 5 }, '00539B'),
  fromIcon('acer', siAcer, { x: 0, y: 9.1, w: 24, h: 5.8 }),
  fromIcon('msi', siMsi, { x: 2.2, y: 0, w: 19.7, h: 23.95 }, 'E4002B'),
  fromIcon('samsung', siSamsung, { x: 0, y: 10.15, w: 24, h: 3.7 }),
  {
    slug: 'microsoft',
    name: 'Microsoft',
    hex: '#5E5E5E',
    mark: { name: 'Microsoft', wordmark: 'Microsoft', box: { x: 0, y: 0, w: 24, h: 6 } },
  },
]

/** The logo's key in media storage: one place for the seed's write and the brand row's link. */
export const brandLogoKey = (brand: DemoBrand) => `brands/${brand.slug}.webp`

/** The logo's drawing area: the mark's ink with a unit around it, or a wordmark's line of text. */
function logoViewBox(brand: DemoBrand) {
  if (!brand.mark.path) return { x: 0, y: 0, w: 240, h: 80 }
  const { box } = brand.mark
  const pad = 1
  return { x: box.x - pad, y: box.y - pad, w: box.w + 2 * pad, h: box.h + 2 * pad }
}

/** The brand's logo as an SVG, its mark tight in the view box; rasterized by brandLogoWebp. */
function brandLogoSvg(brand: DemoBrand): string {
  const { x, y, w, h } = logoViewBox(brand)
  const open = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${x} ${y} ${w} ${h}" role="img"><title>${escapeXml(brand.name)} logo</title>`
  // A wordmark is drawn as text in the server's fonts, as the listing photos' wordmarks are.
  if (!brand.mark.path)
    return `${open}<text x="120" y="52" text-anchor="middle" font-family="Segoe UI, Helvetica Neue, Arial, sans-serif" font-size="40" font-weight="600" letter-spacing="-0.5" fill="${brand.hex}">${escapeXml(brand.mark.wordmark ?? brand.name)}</text></svg>`
  return `${open}<path d="${brand.mark.path}" fill="${brand.hex}"/></svg>`
}

/** The largest a logo is shown (a brand tile's 96 × 48 CSS pixels) at 2.5 device pixels each. */
export const BRAND_LOGO_BOX = { width: 240, height: 120 } as const

/**
 * The brand's logo as a WebP inside {@link BRAND_LOGO_BOX}, transparent around the mark. A browser decodes a picture
 * off the page's main thread; an SVG in an `<img>` is a document of its own, parsed and laid out on it.
 */
export async function brandLogoWebp(brand: DemoBrand): Promise<Buffer> {
  const { w, h } = logoViewBox(brand)
  // Drawn at the density that fills the box, so the mark is rasterized sharp rather than scaled up.
  const density = 72 * Math.max(BRAND_LOGO_BOX.width / w, BRAND_LOGO_BOX.height / h)
  // Lossless: a flat mark keeps its exact colour, and came out smaller than at lossy quality 90.
  return sharp(Buffer.from(brandLogoSvg(brand)), { density })
    .resize(BRAND_LOGO_BOX.width, BRAND_LOGO_BOX.height, { fit: 'inside' })
    .webp({ lossless: true })
    .toBuffer()
}
