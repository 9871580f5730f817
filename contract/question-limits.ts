// The lengths of a question and its answer, without the schemas (questions.ts): the listing's page imports these.

export const QUESTION_MAX = 1000
export const ANSWER_MAX = 2000
/** A listing's page shows at most this many public answers, newest first. */
export const PUBLIC_QUESTIONS_SHOWN = 20
