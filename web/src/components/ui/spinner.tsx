import { cn } from './cn'

export function Spinner({ label = 'Loading', className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2 text-slate-600', className)}>
      <span
        aria-hidden="true"
        className="size-5 animate-spin rounded-full border-2 border-slate-300 border-t-accent motion-reduce:animate-none"
      />
      <span className="sr-only">{label}</span>
    </span>
  )
}
