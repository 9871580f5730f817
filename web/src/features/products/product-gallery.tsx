import { useState } from 'react'
import { GALLERY_SIZES, ProductImage, photoSrcSet } from '../../components/product/product-image'
import { cn } from '../../components/ui/cn'

type Photo = { card: string; medium?: string; detail: string }

/** The large photo with a row of thumbnails that choose it. */
export function ProductGallery({ name, photos }: { name: string; photos: Photo[] }) {
  const [selected, setSelected] = useState(0)
  const current = photos[selected] ?? photos[0]
  const count = photos.length

  return (
    <div className="space-y-3">
      <div className="aspect-[4/3] overflow-hidden rounded-2xl border border-slate-200 bg-slate-100">
        {current ? (
          <ProductImage
            src={current.detail}
            srcSet={photoSrcSet(current)}
            sizes={GALLERY_SIZES}
            alt={selected === 0 ? name : `${name}, photo ${selected + 1} of ${count}`}
            width={1280}
            height={960}
            fetchPriority="high"
            className="size-full object-cover"
          />
        ) : null}
      </div>
      {count > 1 ? (
        <ul className="grid grid-cols-4 gap-2 sm:grid-cols-5" aria-label="Photos">
          {photos.map((photo, index) => (
            <li key={photo.detail}>
              <button
                type="button"
                aria-pressed={index === selected}
                onClick={() => setSelected(index)}
                className={cn(
                  'block aspect-[4/3] w-full overflow-hidden rounded-lg border-2 bg-slate-100',
                  index === selected ? 'border-accent' : 'border-transparent hover:border-slate-300',
                )}
              >
                {/* The thumbnail's alt names the button. */}
                <ProductImage
                  src={photo.card}
                  alt={`Show photo ${index + 1} of ${count}`}
                  width={160}
                  height={120}
                  loading="lazy"
                  className="size-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
