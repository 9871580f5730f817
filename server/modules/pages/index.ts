// Front door of the pages module (docs/decisions/0054): what the rest of the server may use of it.
// Public pages rendered on the server, the sitemap and robots.txt.
export { inlineScriptHashes, pageRoutes } from './pages.routes'
export { loadBuiltRenderer, type PageRenderer } from './pages.service'
