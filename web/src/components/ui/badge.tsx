import type { ReactNode } from 'react'
import { cn } from './cn'

export type BadgeTone = 'accent' | 'neutral' | 'muted' | 'outline' | 'warning'

const tones: Record<BadgeTone, string> = {
  accent: 'bg-accent-soft text-accent-ink',
  neutral: 'bg-slate-800 text-white',
  muted: 'bg-slate-100 text-slate-700',
  outline: 'border border-slate-300 bg-white text-slate-700',
  warning: 'bg-amber-100 text-amber-900',
}

export function Badge({
  tone = 'muted',
  className,
  children,
}: {
  tone?: BadgeTone
  className?: string
  children: ReactNode
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 font-medium text-xs leading-5',
        tones[tone],
        className,
      )}
    >
      {children}
    </span>
  )
}
