import { ErrorBody } from '#contract/errors'

/**
 * The error answers a route declares (for its OpenAPI description and the response check): each status with the
 * one error body. Which code goes with which status is STATUS_BY_CODE's (errors.ts), applied by the one error handler.
 */
export function errorResponses<const S extends number>(...statuses: S[]): { [K in S]: typeof ErrorBody } {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBody])) as { [K in S]: typeof ErrorBody }
}

/** What a signed-in call to read or change one thing may answer besides success. */
export const ERRORS = errorResponses(400, 401, 403, 404, 409)
