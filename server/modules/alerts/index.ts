// Front door of the alerts module (docs/decisions/0054): what the rest of the server may use of it.
// Alerts on saved searches and favourites, matched by jobs, and their unsubscribe links.
export { registerAlertJobs, runAlertMatching } from './alerts.jobs'
export { unsubscribeRoutes } from './unsubscribe.routes'
