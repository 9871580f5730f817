import { PageHeader } from '../../components/ui/page-header'
import { BLOG_ENTRIES } from './blog-entries'

/** `/blog`: four questions about building for the web, each with its answer. */
export function BlogPage() {
  return (
    <>
      <title>Blog · Laptop Market</title>
      <PageHeader title="Blog">
        <p>Questions we hear from people learning web development, answered in plain words.</p>
      </PageHeader>

      <nav
        aria-label="Questions on this page"
        className="mb-10 rounded-xl border border-slate-200 bg-white p-4"
      >
        <ol className="list-decimal space-y-1 pl-5 text-slate-700">
          {BLOG_ENTRIES.map((entry) => (
            <li key={entry.slug}>
              <a href={`#${entry.slug}`} className="text-accent underline-offset-2 hover:underline">
                {entry.question}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <div className="max-w-3xl space-y-8">
        {BLOG_ENTRIES.map((entry) => (
          <article
            key={entry.slug}
            aria-labelledby={entry.slug}
            className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8"
          >
            <h2 id={entry.slug} className="scroll-mt-20 font-bold text-slate-900 text-xl sm:text-2xl">
              {entry.question}
            </h2>
            <div className="prose-page mt-4">
              {entry.paragraphs.map((paragraph) => (
                <p key={paragraph.slice(0, 40)}>{paragraph}</p>
              ))}
            </div>
          </article>
        ))}
      </div>
    </>
  )
}
