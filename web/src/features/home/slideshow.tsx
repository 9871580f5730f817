import { type FocusEvent, type KeyboardEvent, useCallback, useEffect, useState } from 'react'
import { buttonClasses } from '../../components/ui/button'
import { cn } from '../../components/ui/cn'
import { SpriteIcon } from '../../components/ui/sprite-icon'
import { Link } from '../../lib/bindings'
import { useReducedMotion } from '../../lib/use-reduced-motion'
import { SLIDE_SIZES, type Slide, slideSrcSet } from './slides'
import { useLazyEmbla } from './use-lazy-embla'

export const AUTO_ADVANCE_MS = 5000

const controlClasses =
  'inline-flex size-11 items-center justify-center rounded-full border border-slate-300 bg-white ' +
  'text-slate-800 hover:border-slate-400 hover:bg-slate-50'

/**
 * The home carousel, after the WAI-ARIA APG carousel pattern: a rotation control first, previous/next
 * buttons, slide pickers, arrow keys while focus is inside, and no auto-advance while the pointer or
 * keyboard focus is on it or when the visitor prefers reduced motion.
 */
export function Slideshow({ slides }: { slides: readonly Slide[] }) {
  const reducedMotion = useReducedMotion()
  const [emblaRef, emblaApi] = useLazyEmbla({ loop: true, duration: reducedMotion ? 10 : 30 })
  const [selected, setSelected] = useState(0)
  // null until the visitor presses the button: until then the system motion preference decides.
  const [userPaused, setUserPaused] = useState<boolean | null>(null)
  const [isHovered, setIsHovered] = useState(false)
  const [hasFocus, setHasFocus] = useState(false)
  const isPlaying = userPaused === null ? !reducedMotion : !userPaused

  useEffect(() => {
    if (!emblaApi) return
    const onSelect = () => setSelected(emblaApi.selectedScrollSnap())
    onSelect()
    emblaApi.on('select', onSelect).on('reInit', onSelect)
    return () => {
      emblaApi.off('select', onSelect).off('reInit', onSelect)
    }
  }, [emblaApi])

  // Keyed on `selected` so a manual move gives the new slide its full time on screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `selected` restarts the timer on purpose
  useEffect(() => {
    if (!emblaApi || !isPlaying || isHovered || hasFocus || slides.length < 2) return
    const timer = window.setTimeout(() => emblaApi.scrollNext(), AUTO_ADVANCE_MS)
    return () => window.clearTimeout(timer)
  }, [emblaApi, isPlaying, isHovered, hasFocus, selected, slides.length])

  const scrollPrev = useCallback(() => emblaApi?.scrollPrev(), [emblaApi])
  const scrollNext = useCallback(() => emblaApi?.scrollNext(), [emblaApi])

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'ArrowLeft') {
      event.preventDefault()
      scrollPrev()
    } else if (event.key === 'ArrowRight') {
      event.preventDefault()
      scrollNext()
    }
  }

  function onBlur(event: FocusEvent<HTMLElement>) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHasFocus(false)
  }

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Featured laptops"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the carousel takes focus so arrow keys move it
      tabIndex={0}
      onKeyDown={onKeyDown}
      onFocus={() => setHasFocus(true)}
      onBlur={onBlur}
      onMouseEnter={() => setIsHovered(true)}
      onMouseLeave={() => setIsHovered(false)}
      className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div ref={emblaRef} className="overflow-hidden">
        <div className="flex touch-pan-y" aria-live={isPlaying ? 'off' : 'polite'}>
          {slides.map((slide, index) => (
            // biome-ignore lint/a11y/useSemanticElements: the APG carousel pattern marks each slide as a group
            <div
              key={slide.image}
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${slides.length}`}
              inert={index !== selected}
              className="relative min-w-0 flex-[0_0_100%]"
            >
              {/* A later slide can only be reached through the engine, so its picture is asked for once the
                  engine is attached, not in the page's first load beside the first slide's (decision 0149). */}
              <SlideView
                slide={slide}
                isFirst={index === 0}
                hasPicture={index === 0 || emblaApi !== undefined}
              />
            </div>
          ))}
        </div>
      </div>

      <div className="flex items-center justify-between gap-2 border-slate-200 border-t px-3 py-2 sm:px-4">
        <button
          type="button"
          onClick={() => setUserPaused(isPlaying)}
          className={cn(controlClasses, 'w-auto gap-2 px-3 font-medium text-sm')}
        >
          {isPlaying ? (
            <SpriteIcon name="pause" className="size-4" />
          ) : (
            <SpriteIcon name="play" className="size-4" />
          )}
          <span className="sr-only sm:not-sr-only">{isPlaying ? 'Pause slideshow' : 'Play slideshow'}</span>
        </button>

        <div className="flex items-center gap-1">
          {slides.map((slide, index) => (
            <button
              key={slide.image}
              type="button"
              aria-label={`Go to slide ${index + 1}`}
              aria-current={index === selected ? 'true' : undefined}
              onClick={() => emblaApi?.scrollTo(index)}
              className="group inline-flex size-8 items-center justify-center rounded-full"
            >
              <span
                aria-hidden="true"
                className={cn(
                  'block h-2.5 rounded-full transition-all motion-reduce:transition-none',
                  index === selected ? 'w-6 bg-accent' : 'w-2.5 bg-slate-300 group-hover:bg-slate-400',
                )}
              />
            </button>
          ))}
        </div>

        <div className="flex items-center gap-2">
          <button type="button" aria-label="Previous slide" onClick={scrollPrev} className={controlClasses}>
            <SpriteIcon name="chevron-left" className="size-5" />
          </button>
          <button type="button" aria-label="Next slide" onClick={scrollNext} className={controlClasses}>
            <SpriteIcon name="chevron-right" className="size-5" />
          </button>
        </div>
      </div>
    </section>
  )
}

function SlideView({ slide, isFirst, hasPicture }: { slide: Slide; isFirst: boolean; hasPicture: boolean }) {
  const ctaClass = buttonClasses('primary', 'lg', 'w-full sm:w-auto')
  return (
    <div className="relative">
      <div className="aspect-[4/3] bg-gradient-to-br from-teal-50 to-slate-200 sm:aspect-[16/7]">
        {hasPicture ? (
          <img
            src={slide.image}
            srcSet={slideSrcSet(slide.image)}
            sizes={SLIDE_SIZES}
            alt={slide.alt}
            width={1600}
            height={700}
            fetchPriority={isFirst ? 'high' : 'auto'}
            loading={isFirst ? 'eager' : 'lazy'}
            decoding="async"
            // A missing photo leaves the calm gradient behind it rather than a broken-image icon.
            onError={(event) => {
              event.currentTarget.style.visibility = 'hidden'
            }}
            // On phones the crop keeps the laptop, which sits right of centre in every photo.
            className="size-full object-cover object-[72%_50%] sm:object-center"
          />
        ) : null}
      </div>
      {/* From md up the caption sits on the photo's left side in a white panel of its own, so no part of the
          picture (a frame on the wall, a plant) shows through the heading at any width. */}
      <div
        data-testid="slide-caption"
        className="flex flex-col gap-3 p-5 sm:p-8 md:absolute md:top-1/2 md:left-6 md:w-[42%] md:-translate-y-1/2 md:rounded-2xl md:bg-white md:shadow-lg md:shadow-slate-900/5 lg:left-10 lg:p-10"
      >
        <p className="font-bold text-2xl text-slate-900 tracking-tight sm:text-3xl lg:text-4xl">
          {slide.title}
        </p>
        <p className="max-w-sm text-base text-slate-700 sm:text-lg">{slide.text}</p>
        <div className="pt-2">
          {slide.cta.href.startsWith('#') ? (
            <a href={slide.cta.href} className={ctaClass}>
              {slide.cta.label}
            </a>
          ) : (
            <Link to={slide.cta.href} className={ctaClass}>
              {slide.cta.label}
            </Link>
          )}
        </div>
      </div>
    </div>
  )
}
