// Front door of the email-settings module (docs/decisions/0054): what the rest of the server may use of it.
// Which emails a person receives.
export { emailSettingsRoutes } from './email-settings.routes'
