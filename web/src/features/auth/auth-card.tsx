import type { ReactNode } from 'react'

/** The narrow card both the login and the signup page sit in. */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string
  /** Why the page asks, under the title ("Log in to see ASUS laptops"). */
  lead?: ReactNode
  children: ReactNode
  footer: ReactNode
}) {
  return (
    <div className="mx-auto w-full max-w-md py-4 sm:py-8">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-center font-bold text-3xl text-slate-900 tracking-tight">{title}</h1>
        {lead ? <p className="mt-2 text-center text-slate-700">{lead}</p> : null}
        <div className="mt-6">{children}</div>
      </div>
      <p className="mt-6 text-center text-slate-700 text-sm">{footer}</p>
    </div>
  )
}

/** "or" between the email form and the Google button. */
export function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-3 text-slate-600 text-sm">
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
      or
      <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
    </div>
  )
}

/** The provider's refusal, in red under the form, read out when it appears. */
export function FormError({ message }: { message: string | null }) {
  return (
    <div role="alert" className="min-h-0">
      {message ? (
        <p className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-700 text-sm">
          {message}
        </p>
      ) : null}
    </div>
  )
}
