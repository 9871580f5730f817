import { paths } from '#contract/pages'
import { compose, defineEmail, named } from './layout'

/** One new question, as its seller is told of it. */
export type ReceivedQuestion = { productName: string; askerFirstName: string; preview: string }

/**
 * To the seller: buyers asked about their laptops. The questions of a few minutes come in one email
 * (`questions.seller-email`); `more` counts those past the quoted ones.
 */
export default defineEmail<{ questions: ReceivedQuestion[]; more: number }>({
  topic: 'messages',
  render: ({ questions, more }, ctx) => {
    const total = questions.length + more
    const [first] = questions
    const action = { label: 'Answer on Laptop Market', url: `${ctx.siteUrl}${paths.questions()}` }
    const quoted = questions.map(
      (q) => `${q.askerFirstName} asked about ${named(q.productName)}: “${q.preview}”`,
    )
    return compose(
      {
        subject:
          total === 1 && first
            ? `${first.askerFirstName} asked about your ${named(first.productName)}`
            : `${total} new questions about your laptops`,
        preview: total === 1 && first ? first.preview.slice(0, 90) : 'Buyers asked before booking.',
        heading: total === 1 ? 'A question about your laptop' : 'Questions about your laptops',
        paragraphs: [
          ...quoted,
          ...(more > 0 ? [`And ${more} more on your questions page.`] : []),
          'Answer on Laptop Market: you choose whether the answer is also shown on the listing, with the asker’s first name only.',
        ],
        action,
        footnote:
          'Never give payment or contact details in an answer: buyers pay only through Laptop Market.',
        topic: 'messages',
      },
      ctx,
    )
  },
})
