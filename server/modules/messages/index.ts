// Front door of the messages module (docs/decisions/0054): what the rest of the server may use of it.
// Messages between a listing's buyer and seller.
export { messageRoutes } from './messages.routes'
export { registerMessageJobs } from './messages.service'
