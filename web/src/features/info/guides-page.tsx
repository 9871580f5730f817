import { Link } from 'react-router'
import { findGuide, GUIDES, type GuideSlug } from '#contract/guides'
import { paths } from '#contract/pages'
import { Alert } from '../../components/ui/alert'
import { GUIDE_CONTENT } from './guide-content'
import { InfoPage } from './info-page'

/** `/guides`: the guides, each with what it answers. */
export function GuidesPage() {
  return (
    <InfoPage title="Guides" lead={<p>Short guides to judging, buying and selling a used laptop.</p>}>
      <ul>
        {GUIDES.map((guide) => (
          <li key={guide.slug}>
            <Link to={paths.guide(guide.slug)}>{guide.title}</Link>: {guide.summary}
          </li>
        ))}
      </ul>
    </InfoPage>
  )
}

/** `/guides/{slug}`: one guide, with the others after it. */
export function GuidePage({ slug }: { slug: GuideSlug }) {
  const guide = findGuide(slug)
  if (!guide) {
    return (
      <Alert title="No such guide" className="mx-auto max-w-xl">
        <Link to={paths.guides()} className="font-semibold text-accent hover:underline">
          See every guide
        </Link>
      </Alert>
    )
  }
  return (
    <InfoPage title={guide.title} lead={<p>{guide.summary}</p>}>
      {GUIDE_CONTENT[guide.slug]}
      <h2>More guides</h2>
      <ul>
        {GUIDES.filter((g) => g.slug !== guide.slug).map((g) => (
          <li key={g.slug}>
            <Link to={paths.guide(g.slug)}>{g.title}</Link>
          </li>
        ))}
      </ul>
    </InfoPage>
  )
}
