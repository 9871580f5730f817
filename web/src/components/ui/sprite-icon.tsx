import { cn } from './cn'

/** The icons in /icons.svg: the ones every product card repeats. */
export type SpriteIconName = 'map-pin' | 'clock' | 'calendar-days' | 'badge-check' | 'heart'

/**
 * A decorative icon drawn from /icons.svg by reference: a list of 24 cards would otherwise carry 90 copies of the
 * same inline SVG (a quarter of the page's HTML). Drawn like a Lucide icon, in the text's colour.
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
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={cn('lucide', className)}
    >
      <use href={`/icons.svg#${name}`} />
    </svg>
  )
}
