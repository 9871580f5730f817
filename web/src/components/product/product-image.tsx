import { type ImgHTMLAttributes, useState } from 'react'

export const PLACEHOLDER_IMAGE = '/images/laptop-placeholder.svg'

type ProductImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt'> & {
  src: string
  alt: string
}

/** The listing's photo sizes for `srcset`: the card size (640 px wide) and the detail size (1280 px). */
export function photoSrcSet(photo: { card: string; detail: string }): string | undefined {
  return photo.card && photo.card !== photo.detail ? `${photo.card} 640w, ${photo.detail} 1280w` : undefined
}

/** The gallery's width: the full column on phones, about half the page beside the details from lg up. */
export const GALLERY_SIZES = '(min-width: 1152px) 620px, (min-width: 1024px) 55vw, 100vw'

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
