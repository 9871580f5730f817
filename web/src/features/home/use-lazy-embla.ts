import type { EmblaCarouselType, EmblaOptionsType } from 'embla-carousel'
import { useEffect, useRef, useState } from 'react'

/**
 * Embla, attached after the first paint. The carousel markup renders at once; the engine (about 7 KB
 * of gzip JS) arrives as its own chunk, keeping `/` within its JavaScript budget. Same contract as
 * embla-carousel-react's hook: a ref for the viewport and the API once ready.
 */
export function useLazyEmbla(
  options: EmblaOptionsType,
): [(node: HTMLElement | null) => void, EmblaCarouselType | undefined] {
  const [viewport, setViewport] = useState<HTMLElement | null>(null)
  const [api, setApi] = useState<EmblaCarouselType>()
  // The first options build the carousel; later changes are applied by reInit below.
  const initialOptions = useRef(options)

  useEffect(() => {
    if (!viewport) return
    let instance: EmblaCarouselType | undefined
    let isCancelled = false
    import('embla-carousel').then(({ default: EmblaCarousel }) => {
      if (isCancelled) return
      instance = EmblaCarousel(viewport, initialOptions.current)
      setApi(instance)
    })
    return () => {
      isCancelled = true
      instance?.destroy()
      setApi(undefined)
    }
  }, [viewport])

  const { loop, duration } = options
  useEffect(() => {
    api?.reInit({ loop, duration })
  }, [api, loop, duration])

  return [setViewport, api]
}
