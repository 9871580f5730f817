// Front door of the health module (docs/decisions/0054): what the rest of the server may use of it.
// Health checks for the balancer and the operators.
export { healthRoutes } from './health.routes'
