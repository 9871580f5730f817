import { Flag } from 'lucide-react'
import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { sameEmail } from '#contract/email'
import { LazyDialog } from '../../components/ui/lazy-dialog'
import { useOnceSessionKnown, useSession } from '../auth'

// The dialog and the report's rules load when someone opens it, not with every listing page.
const loadReportDialog = () => import('./report-dialog').then((m) => ({ default: m.ReportDialog }))

/**
 * "Report this listing" on the detail page. Signed-out visitors sign in first and come back; the listing's
 * own seller does not see it (the server refuses that report anyway).
 */
export function ReportListing({ productId, sellerEmail }: { productId: string; sellerEmail?: string }) {
  const { user, isLoading } = useSession()
  const navigate = useNavigate()
  const location = useLocation()
  const [isOpen, setIsOpen] = useState(false)
  const onClick = useOnceSessionKnown(isLoading, open)

  if (user && sellerEmail && sameEmail(user.email, sellerEmail)) return null

  function open() {
    if (!user) {
      navigate(`/login?from=${encodeURIComponent(`${location.pathname}${location.search}`)}`)
      return
    }
    setIsOpen(true)
  }

  return (
    <>
      <button
        type="button"
        onClick={onClick}
        className="inline-flex min-h-11 items-center gap-2 rounded-lg px-1 font-medium text-slate-700 text-sm underline-offset-4 hover:text-red-700 hover:underline"
      >
        <Flag aria-hidden="true" className="size-4" />
        Report this listing
      </button>
      {isOpen ? (
        <LazyDialog
          load={loadReportDialog}
          props={{ productId, onClose: () => setIsOpen(false) }}
          what="The report form"
          onClose={() => setIsOpen(false)}
        />
      ) : null}
    </>
  )
}
