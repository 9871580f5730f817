import { Link } from 'react-router'
import type { AdminDashboard, BuyerDashboard, SellerDashboard } from '#contract/dashboard'
import { paths } from '#contract/pages'
import { SellerMoneyFigures } from '../../components/money/seller-money'
import { type QueryLike, QueryState } from '../../components/query-state'
import { buttonClasses } from '../../components/ui/button'
import { Skeleton } from '../../components/ui/skeleton'
import { formatDate, formatMoney, plural } from '../../lib/format'
import { CategoryChart, COLORS, DailyChart } from './charts'
import { useAdminDashboard, useBuyerDashboard, useSellerDashboard } from './dashboard-api'

/** A dashboard's charts once its query has answered; loading and failed states as on every page. */
function Loaded<T>({ query, children }: { query: QueryLike<T>; children: (data: T) => React.ReactNode }) {
  return (
    <QueryState
      query={query}
      errorTitle="Could not load your charts"
      loading={
        <div
          className="grid gap-4 lg:grid-cols-2"
          role="status"
          aria-busy="true"
          aria-label="Loading your charts"
        >
          <Skeleton className="h-72" />
          <Skeleton className="h-72" />
        </div>
      }
    >
      {children}
    </QueryState>
  )
}

export function SellerCharts() {
  const query = useSellerDashboard(true)
  return (
    <Loaded query={query}>
      {(d: SellerDashboard) => (
        <div className="space-y-4">
          <section aria-labelledby="your-money" className="space-y-3">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="your-money" className="font-semibold text-base text-slate-900">
                Your money
              </h2>
              <Link to={paths.earnings()} className="font-medium text-accent text-sm hover:underline">
                See your earnings
              </Link>
            </div>
            <SellerMoneyFigures money={d.money} />
          </section>
          <div className="grid gap-4 lg:grid-cols-2">
            <DailyChart
              title="Views of your listings"
              description={`${plural(d.totals.views, 'visitor')} in the last 30 days (each counted once a day).`}
              rows={d.days}
              series={[{ key: 'views', label: 'Views', color: COLORS[0] as string }]}
            />
            <DailyChart
              title="Bookings and favourites"
              description={`${plural(d.totals.bookings, 'booking')} and ${plural(d.totals.favourites, 'save')} in the last 30 days.`}
              rows={d.days}
              series={[
                { key: 'bookings', label: 'Bookings', color: COLORS[0] as string },
                { key: 'favourites', label: 'Favourites', color: COLORS[1] as string },
              ]}
            />
          </div>
        </div>
      )}
    </Loaded>
  )
}

const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100))

export function AdminCharts() {
  const query = useAdminDashboard(true)
  return (
    <Loaded query={query}>
      {(d: AdminDashboard) => (
        <div className="grid gap-4 lg:grid-cols-2">
          <DailyChart
            title="Listings, bookings and payments"
            description="New each day, last 30 days."
            rows={d.days}
            series={[
              { key: 'listings', label: 'New listings', color: COLORS[0] as string },
              { key: 'bookings', label: 'Bookings', color: COLORS[1] as string },
              { key: 'payments', label: 'Payments', color: COLORS[2] as string },
            ]}
          />
          <DailyChart
            title="Reports and disputes"
            description="Opened each day, last 30 days."
            rows={d.days}
            series={[
              { key: 'reports', label: 'Reports', color: COLORS[3] as string },
              { key: 'disputes', label: 'Disputes', color: COLORS[4] as string },
            ]}
          />
          <CategoryChart
            title="From listing to payment"
            description={`Of the listings posted in the last 30 days: ${percent(d.funnel.booked, d.funnel.listings)}% were booked, ${percent(d.funnel.paid, d.funnel.listings)}% paid for.`}
            valueLabel="Listings"
            summary={`From listing to payment, last 30 days: ${plural(d.funnel.listings, 'listing')} posted, ${d.funnel.booked} booked, ${d.funnel.paid} paid for.`}
            items={[
              { label: 'Listed', value: d.funnel.listings },
              { label: 'Booked', value: d.funnel.booked },
              { label: 'Paid', value: d.funnel.paid },
            ]}
          />
        </div>
      )}
    </Loaded>
  )
}

export function BuyerCharts() {
  const query = useBuyerDashboard(true)
  return (
    <Loaded query={query}>
      {(d: BuyerDashboard) => (
        <div className="grid items-start gap-4 lg:grid-cols-[1.3fr_1fr]">
          <section
            aria-labelledby="orders-in-progress"
            className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
          >
            <h2 id="orders-in-progress" className="font-semibold text-base text-slate-900">
              Orders in progress
            </h2>
            {d.in_progress.length === 0 ? (
              <p className="mt-2 text-slate-600 text-sm">
                Nothing waiting on you.{' '}
                <Link to={paths.browse()} className="text-accent underline">
                  Browse laptops
                </Link>
              </p>
            ) : (
              <ul className="mt-3 divide-y divide-slate-100" data-testid="orders-in-progress">
                {d.in_progress.map((order) => (
                  <li key={order.booking_id} className="flex items-center gap-3 py-3">
                    <img
                      src={order.product_image}
                      alt=""
                      width={64}
                      height={48}
                      className="aspect-[4/3] w-16 shrink-0 rounded-md bg-slate-100 object-cover"
                    />
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-medium text-slate-900 text-sm">
                        <Link
                          to={paths.product(order.product_id)}
                          className="hover:text-accent hover:underline"
                        >
                          {order.product_name}
                        </Link>
                      </p>
                      <p className="text-slate-600 text-xs">
                        {formatMoney(order.price_cents)} · booked {formatDate(order.booked_on)}
                      </p>
                      <p className="mt-0.5 text-slate-800 text-sm">{order.next_step}</p>
                    </div>
                    {order.action === 'pay' ? (
                      <Link to={paths.payment(order.booking_id)} className={buttonClasses('primary', 'sm')}>
                        Pay<span className="sr-only"> for {order.product_name}</span>
                      </Link>
                    ) : order.action === 'orders' ? (
                      <Link to={paths.myOrders()} className={buttonClasses('secondary', 'sm')}>
                        Open<span className="sr-only"> {order.product_name} in My Orders</span>
                      </Link>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <CategoryChart
            title="Your orders"
            description={`${d.counts.in_progress} in progress, ${d.counts.completed} completed, ${formatMoney(d.counts.spent_cents)} spent.`}
            valueLabel="Orders"
            summary={`Your orders, by where they stand: ${d.stages.map((s) => `${s.label} ${s.count}`).join(', ')}.`}
            items={d.stages.map((s) => ({ label: s.label, value: s.count }))}
          />
        </div>
      )}
    </Loaded>
  )
}
