import type { ReactNode } from 'react'

export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <header className="mb-8 space-y-2">
      <h1 className="font-bold text-3xl text-slate-900 tracking-tight sm:text-4xl">{title}</h1>
      {children ? <div className="max-w-prose text-lg text-slate-600">{children}</div> : null}
    </header>
  )
}
