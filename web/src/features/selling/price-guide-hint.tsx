import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { PRICE_GUIDE_MIN_SALES, type PriceGuide, PriceGuideQuery } from '#contract/price-guide'
import { cn } from '../../components/ui/cn'
import { api } from '../../lib/api-client'
import { priceGuideKeys } from '../../lib/query-keys'
import { priceGuideSentence } from '../products'

/** The value after the seller stops typing for a moment. */
function useSettled<T>(value: T, ms = 400): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

type SpecsInput = { brand?: unknown; processor?: unknown; ram_gb?: unknown; storage_gb?: unknown }

/**
 * The add and edit forms' guide: once brand, processor, RAM and storage are filled in, what similar laptops
 * sold for, read out politely to screen readers as it changes.
 */
export function PriceGuideHint({ specs, className }: { specs: SpecsInput; className?: string }) {
  const parsed = PriceGuideQuery.safeParse(specs)
  const query = useSettled(parsed.success ? parsed.data : null)
  const guide = useQuery({
    queryKey: priceGuideKeys.query(query ?? {}),
    queryFn: ({ signal }) =>
      api.get<PriceGuide>(
        '/price-guide',
        query
          ? {
              brand: query.brand,
              processor: query.processor,
              ram_gb: query.ram_gb,
              storage_gb: query.storage_gb,
            }
          : undefined,
        signal,
      ),
    enabled: query !== null,
    staleTime: 60_000,
  })

  let text = 'Fill in the brand, processor, RAM and storage to see what similar laptops sold for.'
  if (query && guide.data) {
    const g = guide.data
    text =
      g.p25 !== null && g.median !== null && g.p75 !== null
        ? `${priceGuideSentence({ count: g.count, p25: g.p25, median: g.median, p75: g.p75 })}.`
        : `Not enough similar sales yet for a price guide (${g.count} of ${PRICE_GUIDE_MIN_SALES} in the last 180 days).`
  } else if (query && guide.isError) {
    text = 'The price guide is not available right now.'
  } else if (query) {
    text = 'Looking up what similar laptops sold for…'
  }
  return (
    <p
      data-testid="price-guide-hint"
      role="status"
      className={cn('rounded-lg bg-slate-50 px-3 py-2 text-slate-700 text-sm', className)}
    >
      {text}
    </p>
  )
}
