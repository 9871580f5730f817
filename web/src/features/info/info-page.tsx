import type { ReactNode } from 'react'
import { PageHeader } from '../../components/ui/page-header'

/** The frame of a long-form page: title, an optional lead, and readable prose. */
export function InfoPage({
  title,
  lead,
  updated,
  children,
}: {
  title: string
  lead?: ReactNode
  updated?: string
  children: ReactNode
}) {
  return (
    <>
      <title>{`${title} · Laptop Market`}</title>
      <PageHeader title={title}>
        {lead}
        {updated ? <p className="mt-2 text-base text-slate-600">Last updated {updated}</p> : null}
      </PageHeader>
      <div className="prose-page max-w-3xl rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8 [&>h2:first-child]:mt-0">
        {children}
      </div>
    </>
  )
}

export const SUPPORT_EMAIL = 'support@laptopmarket.test'

export function SupportEmail() {
  return <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
}
