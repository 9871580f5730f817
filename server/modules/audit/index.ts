// Front door of the audit module (docs/decisions/0054): what the rest of the server may use of it.
// The audit log's reading side (admins' page, a user's security events); its writer is server/lib/audit.ts.
export { auditRoutes } from './audit.routes'
export { findSecurityEvents, findUserIdByEmail } from './audit.service'
