import { SpriteIcon } from '../../components/ui/sprite-icon'
import { Link } from '../../lib/bindings'

const POINTS = [
  {
    icon: 'gauge',
    title: 'Graded honestly',
    text: 'Excellent, Good or Fair, each defined by marks you can see and battery health you can measure.',
  },
  {
    icon: 'badge-check',
    title: 'Sellers you can check',
    text: 'Every listing names its seller, and verified sellers carry a badge.',
  },
  {
    icon: 'credit-card',
    title: 'Safe payment',
    text: 'Pay through Laptop Market by card. The first confirmed payment wins; nobody pays twice.',
  },
] as const

export function AboutSection() {
  return (
    <div className="grid gap-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10 lg:grid-cols-[1fr_1.4fr]">
      <div className="space-y-4">
        <p className="text-lg text-slate-700 leading-8">
          Laptop Market is a marketplace for used laptops. We connect people who have a laptop to sell with
          people who need one, and we keep every listing clear: real specs, an honest grade and the seller's
          name.
        </p>
        <Link
          to="/about"
          className="inline-block font-semibold text-accent underline-offset-4 hover:underline"
        >
          Our story and how grading works
        </Link>
      </div>
      <ul className="grid gap-6 sm:grid-cols-3 lg:grid-cols-1 xl:grid-cols-3">
        {POINTS.map(({ icon, title, text }) => (
          <li key={title} className="space-y-2">
            <span className="inline-flex size-10 items-center justify-center rounded-lg bg-accent-soft text-accent-ink">
              <SpriteIcon name={icon} className="size-5" />
            </span>
            <h3 className="font-semibold text-slate-900">{title}</h3>
            <p className="text-slate-600 text-sm leading-6">{text}</p>
          </li>
        ))}
      </ul>
    </div>
  )
}
