// The questions feature as other features see it: import from here, never from a file inside it
// (biome.json's noRestrictedImports for web/src/features; docs/decisions/0048).

export { AskSellerButton, ProductQuestions } from './product-questions'
export { useUnansweredQuestions } from './questions-api'
