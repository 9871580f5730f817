import { Skeleton } from './skeleton'

/** Two placeholder rows (a picture and two lines each) while a list of listings, reports or disputes loads. */
export function ListSkeleton({ label }: { label: string }) {
  return (
    <ul className="space-y-4" aria-label={label}>
      {[0, 1].map((n) => (
        <li key={n} className="flex gap-4 rounded-xl border border-slate-200 bg-white p-4">
          <Skeleton className="aspect-[4/3] w-28 shrink-0" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-4 w-full" />
          </div>
        </li>
      ))}
    </ul>
  )
}
