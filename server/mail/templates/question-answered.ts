import { compose, defineEmail, named } from './layout'

/** To the person who asked: the seller answered their question. `path` opens the listing. */
export default defineEmail<{
  productName: string
  question: string
  answer: string
  isPublic: boolean
  path: string
}>({
  topic: 'messages',
  render: ({ productName, question, answer, isPublic, path }, ctx) =>
    compose(
      {
        subject: `The seller answered your question about ${named(productName)}`,
        preview: answer.slice(0, 90),
        heading: 'Your question was answered',
        paragraphs: [
          `You asked about ${named(productName)}: “${question}”`,
          `The seller answered: “${answer}”`,
          isPublic
            ? 'The seller also shows this question and answer on the listing, with your first name only.'
            : 'Only you can see this answer (on your questions page).',
        ],
        action: { label: 'Open the listing', url: `${ctx.siteUrl}${path}` },
        footnote: 'Pay only through Laptop Market: a payment made any other way is not protected.',
        topic: 'messages',
      },
      ctx,
    ),
})
