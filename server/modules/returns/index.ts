// Front door of the returns module (docs/decisions/0054): what the rest of the server may use of it.
// Returns of laptops not as described: opened by the buyer, answered by the seller or an admin, refunded once back.
export { registerReturnJobs } from './returns.jobs'
export { returnRoutes } from './returns.routes'
export { returnFirst } from './returns.service'
export { returnsDeps } from './returns-deps'
