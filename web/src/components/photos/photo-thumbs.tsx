/** A row of small photos, each opening its larger version in a new tab (a return's photos, for each side). */
export function PhotoThumbs({
  photos,
  label,
  size = 'md',
}: {
  photos: { _id: string; card: string; detail: string }[]
  label: string
  size?: 'sm' | 'md'
}) {
  if (photos.length === 0) return null
  const [width, height, cls] = size === 'sm' ? [64, 48, 'w-16'] : [96, 72, 'w-24']
  return (
    <ul className="flex flex-wrap gap-2" aria-label={label}>
      {photos.map((p, i) => (
        <li key={p._id}>
          <a href={p.detail} target="_blank" rel="noreferrer">
            <img
              src={p.card}
              alt={`What the buyer shows, ${i + 1} of ${photos.length}`}
              width={width}
              height={height}
              className={`aspect-[4/3] ${cls} rounded border border-slate-200 object-cover`}
            />
          </a>
        </li>
      ))}
    </ul>
  )
}
