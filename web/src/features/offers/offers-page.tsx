import { Link, useSearchParams } from 'react-router'
import type { OfferRole } from '#contract/offers'
import { paths } from '#contract/pages'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { ListSkeleton } from '../../components/ui/list-skeleton'
import { PageHeader } from '../../components/ui/page-header'
import { useSession } from '../auth'
import { OfferList } from './offer-list'
import { useOffers } from './offers-api'

/** `/dashboard/offers`: offers on the seller's listings (optionally one listing's), or the offers a buyer made. */
export function OffersPage() {
  const { user } = useSession()
  const [params] = useSearchParams()
  const asked = params.get('role')
  const role: OfferRole =
    asked === 'buyer' || asked === 'seller' ? asked : user?.role === 'seller' ? 'seller' : 'buyer'
  const productId = params.get('productId') ?? undefined
  const offers = useOffers(role, productId, Boolean(user))
  const tab = (r: OfferRole, label: string) => (
    <Link
      to={`${paths.offers()}?role=${r}`}
      aria-current={r === role ? 'page' : undefined}
      className={`inline-flex min-h-11 items-center rounded-lg px-3 font-medium text-sm ${
        r === role ? 'bg-accent-soft text-accent-ink' : 'text-slate-700 hover:bg-slate-100'
      }`}
    >
      {label}
    </Link>
  )
  return (
    <>
      <title>Offers · Laptop Market</title>
      <PageHeader title="Offers">
        <p>
          Prices proposed between buyers and sellers. An accepted offer is held for the buyer while they pay.
        </p>
      </PageHeader>
      <nav aria-label="Offers" className="mb-4 flex gap-2">
        {tab('seller', 'On your listings')}
        {tab('buyer', 'Offers you made')}
      </nav>
      <QueryState
        query={offers}
        errorTitle="We could not load offers"
        loading={<ListSkeleton label="Loading offers" />}
        empty={<Alert title="No offers yet" />}
      >
        {(data) => <OfferList offers={data} />}
      </QueryState>
    </>
  )
}
