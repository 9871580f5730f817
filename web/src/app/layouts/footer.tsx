import { Link } from '../../lib/bindings'

const LINKS = [
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
  { to: '/terms', label: 'Terms' },
  { to: '/privacy', label: 'Privacy' },
  { to: '/blog', label: 'Blog' },
  { to: '/guides', label: 'Guides' },
] as const

export function Footer() {
  return (
    <footer className="mt-16 border-slate-200 border-t bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-sm space-y-2">
          <p className="font-bold text-slate-900">Laptop Market</p>
          <p className="text-slate-600 text-sm">
            Used laptops from people who cared for them, graded honestly and paid for safely.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            {LINKS.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="font-medium text-slate-700 text-sm hover:text-accent hover:underline"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-slate-100 border-t">
        <p className="mx-auto max-w-6xl px-4 py-4 text-slate-600 text-xs sm:px-6">
          © {new Date().getFullYear()} Laptop Market. Prices in US dollars.
        </p>
      </div>
    </footer>
  )
}
