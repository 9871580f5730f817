import { cn } from './cn'

/** A grey placeholder block shown while content loads. */
export function Skeleton({ className }: { className?: string }) {
  return (
    <div
      data-testid="skeleton"
      aria-hidden="true"
      className={cn('animate-pulse rounded-md bg-slate-200', className)}
    />
  )
}
