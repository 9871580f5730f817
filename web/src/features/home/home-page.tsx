import type { ReactNode } from 'react'
import { Alert } from '../../components/ui/alert'
import { buttonClasses } from '../../components/ui/button'
import { SpriteIcon } from '../../components/ui/sprite-icon'
import { Link } from '../../lib/bindings'
import { BrandList } from '../brands'
import { ProductGrid, useAdvertisedProducts } from '../products'
import { AboutSection } from './about-section'
import { SLIDES } from './slides'
import { Slideshow } from './slideshow'

/** `/`: slideshow, advertised laptops, brands, about. The only page in the first download. */
export function HomePage() {
  const advertised = useAdvertisedProducts()
  return (
    <>
      <title>Laptop Market · Used laptops, graded honestly</title>
      <h1 className="sr-only">Laptop Market: used laptops from trusted sellers</h1>
      <Slideshow slides={SLIDES} />

      <HomeSection
        id="advertised-laptops"
        title="Advertised Laptops"
        action={
          <Link
            to="/productcard"
            className="inline-flex items-center gap-1 font-semibold text-accent hover:underline"
          >
            View all laptops
            <SpriteIcon name="arrow-right" className="size-4" />
          </Link>
        }
      >
        <ProductGrid
          products={advertised.data}
          isPending={advertised.isPending}
          error={advertised.error}
          onRetry={() => advertised.refetch()}
          skeletonCount={4}
          rowOnPhone
          // Under the slideshow, whose picture is the page's largest paint: no card leads (decision 0151).
          leadCards={0}
          label="Advertised laptops"
          empty={
            <Alert title="No advertised laptops right now">
              <p>Sellers feature new listings every week. Everything for sale is one click away.</p>
              <Link to="/productcard" className={buttonClasses('secondary')}>
                See every laptop
              </Link>
            </Alert>
          }
        />
      </HomeSection>

      <HomeSection id="shop-by-brand" title="Shop by Brand">
        <BrandList />
      </HomeSection>

      <HomeSection id="about-us" title="About Us">
        <AboutSection />
      </HomeSection>
    </>
  )
}

function HomeSection({
  id,
  title,
  action,
  children,
}: {
  id: string
  title: string
  action?: ReactNode
  children: ReactNode
}) {
  const headingId = `${id}-heading`
  return (
    <section id={id} aria-labelledby={headingId} className="mt-14 scroll-mt-20">
      <div className="mb-5 flex flex-wrap items-end justify-between gap-2">
        <h2 id={headingId} className="font-bold text-2xl text-slate-900 tracking-tight sm:text-3xl">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  )
}
