import type { ReactNode } from 'react'
import { findGuide, type GuideSlug } from '#contract/guides'
import { paths } from '#contract/pages'
import { Link } from '../lib/bindings'

/** A line that points to one of the guides (`/guides/{slug}`), in the words given or the guide's title. */
export function GuideLink({
  slug,
  children,
  className,
}: {
  slug: GuideSlug
  children?: ReactNode
  className?: string
}) {
  return (
    <Link to={paths.guide(slug)} className={className ?? 'font-semibold text-accent hover:underline'}>
      {children ?? findGuide(slug)?.title}
    </Link>
  )
}
