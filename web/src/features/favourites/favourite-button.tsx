import { useEffect, useState } from 'react'
import { paths } from '#contract/pages'
import { cn } from '../../components/ui/cn'
import { SpriteIcon } from '../../components/ui/sprite-icon'
import { errorMessage } from '../../lib/api-client'
import { useLocation, useNavigate } from '../../lib/bindings'
import { toast } from '../../lib/toast'
import { useOnceSessionKnown, useSession } from '../auth'
import { pendingFavourite, useFavouriteIds, useToggleFavourite } from './favourites-api'

type FavouriteButtonProps = {
  productId: string
  productName: string
  /** The listing's seller: their own listing shows no heart (the server refuses it anyway). */
  sellerId?: string
  /** `icon`: a round button over a card's photo; `labelled`: a button with words, on the listing page. */
  look?: 'icon' | 'labelled'
  className?: string
}

/**
 * The heart: saves the laptop to the favourites, or forgets it. A signed-out visitor is sent to sign in and,
 * back on this page, finds the laptop saved.
 */
export function FavouriteButton({
  productId,
  productName,
  sellerId,
  look = 'icon',
  className,
}: FavouriteButtonProps) {
  const { user, isLoading } = useSession()
  const navigate = useNavigate()
  const location = useLocation()
  const ids = useFavouriteIds(Boolean(user))
  const toggle = useToggleFavourite()
  const [busy, setBusy] = useState(false)
  const saved = ids.data?.ids?.includes(productId) ?? false
  const own = Boolean(user && sellerId && user.id === sellerId)

  // Back from signing in to save this laptop: save it now.
  useEffect(() => {
    if (!user || own || !pendingFavourite.take(productId)) return
    toggle(productId, true)
      .then(() => toast.success('Saved to your favourites'))
      .catch((err) => toast.error(errorMessage(err, 'Could not save this laptop. Please try again.')))
  }, [user, own, productId, toggle])

  const onClick = useOnceSessionKnown(isLoading, toggleSaved)

  if (own) return null

  async function toggleSaved() {
    if (!user) {
      pendingFavourite.set(productId)
      navigate(paths.login(`${location.pathname}${location.search}`))
      return
    }
    setBusy(true)
    try {
      await toggle(productId, !saved)
      toast.success(saved ? 'Removed from your favourites' : 'Saved to your favourites')
    } catch (err) {
      toast.error(errorMessage(err, 'Could not change your favourites. Please try again.'))
    } finally {
      setBusy(false)
    }
  }

  const label = saved ? `Remove ${productName} from favourites` : `Save ${productName} to favourites`
  if (look === 'labelled') {
    return (
      <button
        type="button"
        onClick={onClick}
        disabled={busy}
        aria-pressed={saved}
        aria-label={label}
        className={cn(
          'inline-flex min-h-11 items-center gap-2 rounded-lg border px-4 font-medium text-sm',
          saved
            ? 'border-rose-200 bg-rose-50 text-rose-700 hover:bg-rose-100'
            : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50',
          className,
        )}
      >
        <SpriteIcon name="heart" filled={saved} className="size-5" />
        {saved ? 'Saved' : 'Save'}
      </button>
    )
  }
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={busy}
      aria-pressed={saved}
      aria-label={label}
      title={saved ? 'Saved to your favourites' : 'Save to favourites'}
      className={cn(
        'inline-flex size-11 items-center justify-center rounded-full bg-white/95 shadow-sm ring-1 ring-slate-200 hover:bg-white',
        saved ? 'text-rose-600' : 'text-slate-700 hover:text-rose-600',
        className,
      )}
    >
      <SpriteIcon name="heart" filled={saved} className="size-5" />
    </button>
  )
}
