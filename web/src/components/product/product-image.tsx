import { type ImgHTMLAttributes, useState } from 'react'

export const PLACEHOLDER_IMAGE = '/images/laptop-placeholder.svg'

type ProductImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt'> & {
  src: string
  alt: string
}

/**
 * The listing's photo sizes for `srcset`: the card size (640 px wide), the medium size (960 px) where the photo has
 * one, and the detail size (1280 px). A browser takes the smallest that covers the slot at its screen's density, so
 * without the medium size every phone downloaded the 1280-pixel file, about twice the bytes it can show.
 */
export function photoSrcSet(photo: { card: string; medium?: string; detail: string }): string | undefined {
  if (!photo.card || photo.card === photo.detail) return undefined
  return [
    `${photo.card} 640w`,
    ...(photo.medium ? [`${photo.medium} 960w`] : []),
    `${photo.detail} 1280w`,
  ].join(', ')
}

/**
 * The gallery's width: the main column less its padding (1 rem a side, 1.5 rem from sm up) until lg, then about
 * half the page beside the details (620 px once the page stops growing).
 */
export const GALLERY_SIZES =
  '(min-width: 1152px) 620px, (min-width: 1024px) 55vw, (min-width: 640px) calc(100vw - 3rem), calc(100vw - 2rem)'

/** A product photo that falls back to the laptop placeholder when the file cannot be loaded. */
export function ProductImage({ src, alt, srcSet, sizes, ...rest }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null)
  const hasFailed = failedSrc === src
  const shown = hasFailed ? PLACEHOLDER_IMAGE : src || PLACEHOLDER_IMAGE
  return (
    <img
      src={shown}
      srcSet={hasFailed ? undefined : srcSet}
      sizes={hasFailed || !srcSet ? undefined : sizes}
      alt={alt}
      onError={() => {
        if (shown !== PLACEHOLDER_IMAGE) setFailedSrc(src)
      }}
      {...rest}
    />
  )
}
