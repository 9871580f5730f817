// Front door of the questions module (docs/decisions/0054): what the rest of the server may use of it.
// Questions to a listing's seller before buying, their answers and the listing's public Q&A.
export { questionRoutes } from './questions.routes'
export { eraseQuestionsOf, findPublicQuestions, registerQuestionJobs } from './questions.service'
