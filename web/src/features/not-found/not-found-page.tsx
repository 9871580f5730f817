import { Link } from 'react-router'
import { buttonClasses } from '../../components/ui/button'

/** Any unknown path, including unknown `/dashboard/*` pages. */
export function NotFoundPage() {
  return (
    <>
      <title>Page not found · Laptop Market</title>
      <div className="mx-auto flex max-w-xl flex-col items-center py-8 text-center sm:py-12">
        <img
          src="/images/not-found.svg"
          alt="Page not found"
          width={480}
          height={360}
          className="aspect-[4/3] w-full max-w-sm object-contain"
        />
        <h1 className="mt-6 font-bold text-3xl text-slate-900 tracking-tight sm:text-4xl">Page not found</h1>
        <p className="mt-3 text-lg text-slate-600">
          The page you are looking for does not exist or has moved. Let us get you back to the laptops.
        </p>
        <Link to="/" className={buttonClasses('primary', 'lg', 'mt-8')}>
          Back to home
        </Link>
      </div>
    </>
  )
}
