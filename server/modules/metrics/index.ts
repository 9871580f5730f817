// Front door of the metrics module (docs/decisions/0054): the figures /metrics reads from the database.
export { type Figures, type QueueFigures, readFigures } from './figures'
