import { cn } from './cn'

/** The icons in icons.svg, which every page carries: the ones the product cards, the home page, the navbar and the footer show. */
export type SpriteIconName =
  | 'map-pin'
  | 'clock'
  | 'calendar-days'
  | 'badge-check'
  | 'heart'
  | 'laptop'
  | 'menu'
  | 'x'
  | 'search'
  | 'arrow-right'
  | 'credit-card'
  | 'gauge'
  | 'chevron-left'
  | 'chevron-right'
  | 'pause'
  | 'play'
  | 'star'
  | 'battery-full'
  | 'battery-low'
  | 'battery-medium'

/**
 * A decorative icon drawn by reference to its symbol in the page (icons.svg, written into index.html): a list of 24
 * cards would otherwise carry 90 copies of the same inline SVG (a quarter of the page's HTML), and the home page's
 * first download would carry the icon library. Drawn like a Lucide icon, in the text's colour: the symbol gives the
 * view box and the `sprite-icon` rule (index.css) the strokes, so each icon's element carries neither (24 cards' icons
 * wrote them out 140 times, 20 kB of the list's HTML). A class such as `fill-amber-400` still colours one in.
 */
export function SpriteIcon({
  name,
  className,
  filled = false,
}: {
  name: SpriteIconName
  className?: string
  /** Drawn solid (a saved heart) rather than as an outline. */
  filled?: boolean
}) {
  return (
    <svg aria-hidden="true" className={cn('lucide sprite-icon', filled && 'fill-current', className)}>
      <use href={`#${name}`} />
    </svg>
  )
}
