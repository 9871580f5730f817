import type { ReactNode } from 'react'
import { cn } from './cn'

/** A calm boxed message: errors, empty results, "not found". */
export function Alert({
  title,
  children,
  tone = 'info',
  className,
}: {
  title: string
  children?: ReactNode
  tone?: 'info' | 'error'
  className?: string
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : undefined}
      className={cn(
        'rounded-xl border p-6 text-center',
        tone === 'error'
          ? 'border-red-200 bg-red-50 text-red-900'
          : 'border-slate-200 bg-white text-slate-700',
        className,
      )}
    >
      <p className="font-semibold text-lg text-slate-900">{title}</p>
      {children ? <div className="mt-2 space-y-3">{children}</div> : null}
    </div>
  )
}
