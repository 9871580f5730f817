// Front door of the battery-reports module (docs/decisions/0054): what the rest of the server may use of it.
// A listing's battery report: uploaded, parsed, kept.
export { batteryReportRoutes } from './battery-reports.routes'
export { keepReportedBattery } from './battery-reports.service'
