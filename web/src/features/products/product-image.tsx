import { type ImgHTMLAttributes, useState } from 'react'

export const PLACEHOLDER_IMAGE = '/images/laptop-placeholder.svg'

type ProductImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'alt'> & {
  src: string
  alt: string
}

/** A product photo that falls back to the laptop placeholder when the file cannot be loaded. */
export function ProductImage({ src, alt, ...rest }: ProductImageProps) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null)
  const shown = failedSrc === src ? PLACEHOLDER_IMAGE : src || PLACEHOLDER_IMAGE
  return (
    <img
      src={shown}
      alt={alt}
      onError={() => {
        if (shown !== PLACEHOLDER_IMAGE) setFailedSrc(src)
      }}
      {...rest}
    />
  )
}
