// The messages feature as other features see it: import from here, never from a file inside it
// (biome.json's noRestrictedImports for web/src/features; docs/decisions/0048).

export { ConversationPanel } from './conversation-panel'
export { ConversationTranscript } from './conversation-transcript'
export { OrderMessagesLink, ProductMessagesLinks } from './messages-page'
export { ReportedMessages } from './reported-messages'
