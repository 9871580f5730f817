export type Slide = {
  image: string
  alt: string
  title: string
  text: string
  cta: { label: string; href: string }
}

/**
 * The home slideshow. The photos are 16:7 with the laptop on the right, leaving the left side for the
 * caption. `href` starting with "#" jumps within the home page.
 */
export const SLIDES: readonly Slide[] = [
  {
    image: '/images/hero-1.webp',
    alt: 'A silver MacBook open on a wooden desk beside a potted plant and a green coffee mug',
    title: 'Used laptops, graded honestly',
    text: 'Every listing shows a clear condition grade, real specs and who is selling it.',
    cta: { label: 'Browse all laptops', href: '/productcard' },
  },
  {
    image: '/images/hero-2.webp',
    alt: 'A black Lenovo laptop on a light desk below a bookshelf, with a desk lamp and a notebook',
    title: 'Deals our sellers are featuring',
    text: 'Advertised laptops, still for sale, from sellers across the country.',
    cta: { label: 'See advertised laptops', href: '/advertise' },
  },
  {
    image: '/images/hero-3.webp',
    alt: 'A dark ASUS laptop with a red-lit keyboard on a wooden desk next to a coffee cup and a plant',
    title: 'Find the brand you trust',
    text: 'Apple, Dell, HP, Lenovo and more: pick a brand and compare what is on offer.',
    cta: { label: 'Shop by brand', href: '#shop-by-brand' },
  },
  {
    image: '/images/hero-4.webp',
    alt: 'A silver Dell laptop on a pale wooden desk beside a plant',
    title: 'Know what you are buying',
    text: 'Excellent, Good or Fair: each grade is defined, from visible marks to battery health.',
    cta: { label: 'How we grade condition', href: '/about' },
  },
]

/** Each slide's photo at 800 and 1600 pixels wide: phones fetch the smaller one. */
export function slideSrcSet(image: string): string {
  return `${image.replace(/\.webp$/, '-800.webp')} 800w, ${image} 1600w`
}

/** The slideshow spans the page up to the 72 rem content width. */
export const SLIDE_SIZES = '(min-width: 72rem) 72rem, 100vw'
