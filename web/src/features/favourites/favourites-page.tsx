import { HeartOff } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { ALERT_CHOICES, ALERT_LABELS, type AlertChoice, type Favourite } from '#contract/favourites'
import { paths } from '#contract/pages'
import { ProductImage } from '../../components/product/product-image'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { PageHeader } from '../../components/ui/page-header'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage } from '../../lib/api-client'
import { formatDate, formatMoney } from '../../lib/format'
import { toast } from '../../lib/toast'
import { saveFavouriteAlert, useFavouriteAlert, useFavourites, useToggleFavourite } from './favourites-api'

const STATUS_LABELS: Record<Favourite['status'], string> = {
  available: 'Available',
  reserved: 'Reserved',
  sold: 'Sold',
  expired: 'Expired',
  removed: 'Removed by the seller',
}

/** What changed since it was saved: "Price down from $520 to $470", "Sold", … */
export function changeSince(f: Favourite): string | null {
  const cents = (dollars: number) => Math.round(dollars * 100)
  if (f.status === 'removed') return 'Removed since you saved it'
  if (f.status === 'sold') return 'Sold since you saved it'
  if (f.status === 'expired') return 'The listing expired'
  if (f.price < f.savedPrice)
    return `Price down from ${formatMoney(cents(f.savedPrice))} to ${formatMoney(cents(f.price))}`
  if (f.price > f.savedPrice)
    return `Price up from ${formatMoney(cents(f.savedPrice))} to ${formatMoney(cents(f.price))}`
  if (f.status === 'reserved') return 'Another buyer is paying for it right now'
  return null
}

function AlertSetting() {
  const setting = useFavouriteAlert()
  const [shown, setShown] = useState<AlertChoice | null>(null)
  const value = shown ?? setting.data?.alert ?? 'instant'
  async function change(alert: AlertChoice) {
    setShown(alert)
    try {
      await saveFavouriteAlert(alert)
      await setting.refetch()
      toast.success('Alert settings saved')
    } catch (err) {
      setShown(null)
      toast.error(errorMessage(err, 'Could not save your choice. Please try again.'))
    }
  }
  return (
    <label className="flex flex-wrap items-center gap-3 text-slate-700 text-sm">
      <span className="font-medium text-slate-900">When a saved laptop gets cheaper or is free again:</span>
      <select
        value={value}
        disabled={setting.isPending}
        onChange={(e) => change(e.target.value as AlertChoice)}
        className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm"
      >
        {ALERT_CHOICES.map((c) => (
          <option key={c} value={c}>
            {ALERT_LABELS[c]}
          </option>
        ))}
      </select>
    </label>
  )
}

/** `/dashboard/favourites`: the laptops the user saved, with what changed since. */
export function FavouritesPage() {
  const list = useFavourites()
  const toggle = useToggleFavourite()

  async function remove(f: Favourite) {
    try {
      await toggle(f.productId, false)
      toast.success('Removed from your favourites')
    } catch (err) {
      toast.error(errorMessage(err, 'Could not remove it. Please try again.'))
    }
  }

  return (
    <>
      <title>Favourites · Laptop Market</title>
      <PageHeader title="Favourites">
        <p>Laptops you saved, and what changed since. Save one with the heart on any laptop.</p>
      </PageHeader>
      <div className="mb-6 rounded-xl border border-slate-200 bg-white p-4">
        <AlertSetting />
      </div>
      <QueryState
        query={list}
        errorTitle="Could not load your favourites"
        loading={
          <div className="space-y-3" aria-busy="true">
            <Skeleton className="h-28 w-full" />
            <Skeleton className="h-28 w-full" />
          </div>
        }
        empty={
          <Alert title="No favourites yet">
            <p>
              Tap the heart on a laptop you like and it waits for you here. We tell you when its price drops.
            </p>
            <Link to={paths.browse()} className="font-medium text-accent underline underline-offset-4">
              Browse laptops
            </Link>
          </Alert>
        }
      >
        {(data) => (
          <ul className="space-y-3" aria-label="Your favourites">
            {data.map((f) => {
              const change = changeSince(f)
              const down = f.price < f.savedPrice && f.status !== 'removed' && f.status !== 'sold'
              return (
                <li
                  key={f.productId}
                  data-testid="favourite"
                  className="flex gap-4 rounded-xl border border-slate-200 bg-white p-3 sm:p-4"
                >
                  <ProductImage
                    src={f.product.images[0]?.card ?? f.product.img}
                    alt=""
                    width={160}
                    height={120}
                    loading="lazy"
                    className="h-20 w-28 shrink-0 rounded-lg object-cover sm:h-24 sm:w-32"
                  />
                  <div className="min-w-0 flex-1 space-y-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge tone={f.status === 'available' ? 'accent' : 'outline'}>
                        {STATUS_LABELS[f.status]}
                      </Badge>
                      <span className="text-slate-500 text-xs">Saved {formatDate(f.savedAt)}</span>
                    </div>
                    {f.status === 'removed' ? (
                      <p className="font-semibold text-slate-900">{f.product.name}</p>
                    ) : (
                      <Link
                        to={paths.product(f.productId)}
                        className="font-semibold text-slate-900 hover:text-accent hover:underline"
                      >
                        {f.product.name}
                      </Link>
                    )}
                    <p className="text-slate-900">{formatMoney(Math.round(f.price * 100))}</p>
                    {change ? (
                      <p className={down ? 'font-medium text-accent text-sm' : 'text-slate-600 text-sm'}>
                        {change}
                      </p>
                    ) : null}
                  </div>
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => remove(f)}
                    aria-label={`Remove ${f.product.name} from favourites`}
                  >
                    <HeartOff aria-hidden="true" className="size-4" />
                    <span className="hidden sm:inline">Remove</span>
                  </Button>
                </li>
              )
            })}
          </ul>
        )}
      </QueryState>
    </>
  )
}
