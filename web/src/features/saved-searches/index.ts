// The saved-searches feature as other features see it: import from here, never from a file inside it
// (biome.json's noRestrictedImports for web/src/features; docs/decisions/0048).

export { SaveSearchButton } from './save-search-button'
export { useSavedSearchVisit } from './saved-searches-api'
