import { z } from 'zod'
import { ANSWER_MAX, QUESTION_MAX } from './question-limits'

export { ANSWER_MAX, PUBLIC_QUESTIONS_SHOWN, QUESTION_MAX } from './question-limits'

// Control characters other than tab and line breaks are refused: questions and answers are shown as text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point of the check
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

const text = (empty: string, max: number, what: string) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, empty)
    .max(max, `Keep the ${what} under ${max} characters`)
    .refine((t) => !CONTROL_CHARACTERS.test(t), `The ${what} cannot contain control characters`)

/** "Ask the seller": a question about a listing, before buying. */
export const NewQuestion = z.strictObject({ body: text('Write your question', QUESTION_MAX, 'question') })
export type NewQuestion = z.infer<typeof NewQuestion>

/** The seller's answer, shown to the asker; `public` also shows it on the listing (asker by first name). */
export const QuestionAnswer = z.strictObject({
  answer: text('Write your answer', ANSWER_MAX, 'answer'),
  public: z.boolean({ error: 'Choose whether the answer is shown on the listing' }),
})
export type QuestionAnswer = z.infer<typeof QuestionAnswer>

/** One answered question as everyone sees it on the listing: the asker by first name only. */
export const PublicQuestion = z.object({
  _id: z.string(),
  /** The asker's first name; null when the account was erased. */
  askerFirstName: z.string().nullable(),
  body: z.string(),
  answer: z.string(),
  askedAt: z.string(),
  answeredAt: z.string(),
})
export type PublicQuestion = z.infer<typeof PublicQuestion>
export const PublicQuestionList = z.array(PublicQuestion)

export const QuestionRole = z.enum(['seller', 'asker'])
export type QuestionRole = z.infer<typeof QuestionRole>

export const QuestionsQuery = z.strictObject({
  /** `seller`: questions about the caller's listings; `asker`: questions the caller asked. */
  role: QuestionRole,
})

/** A question as its seller or its asker sees it. */
export const Question = z.object({
  _id: z.string(),
  productId: z.string(),
  productName: z.string(),
  /** The asker's first name (the seller sees no more of who asked). */
  askerFirstName: z.string().nullable(),
  body: z.string(),
  answer: z.string().nullable(),
  public: z.boolean(),
  askedAt: z.string(),
  answeredAt: z.string().nullable(),
  /** The seller no longer takes questions from this asker (shown to the seller only; false to the asker). */
  blocked: z.boolean(),
})
export type Question = z.infer<typeof Question>

export const QuestionList = z.object({
  items: z.array(Question),
  /** Questions waiting for the caller's answer (as a seller; blocked askers' left out). */
  unanswered: z.number().int(),
})
export type QuestionList = z.infer<typeof QuestionList>

export const UnansweredQuestions = z.object({ count: z.number().int() })
export type UnansweredQuestions = z.infer<typeof UnansweredQuestions>

/** The first word of a name: what the listing's public Q&A shows of its asker. */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? ''
}
