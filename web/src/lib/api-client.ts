import type { ErrorCode } from '#contract/errors'

/** NETWORK: the server could not be reached at all, so there is no status or error body. */
export type ApiErrorCode = ErrorCode | 'NETWORK'

/** What every failed API call throws; pages show `message`, forms show `fields`. */
export class ApiError extends Error {
  readonly status: number
  readonly code: ApiErrorCode
  readonly fields: Record<string, string> | undefined
  /** The whole answer, for the few errors that carry more than the message (a hold's `holdUntil`). */
  readonly body: unknown

  constructor(
    status: number,
    code: ApiErrorCode,
    message: string,
    fields?: Record<string, string>,
    body?: unknown,
  ) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fields = fields
    this.body = body
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
}

function codeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'VALIDATION')
}

/** Reads the server's `{ error: { code, message, fields } }`, falling back to the status alone. */
async function toApiError(res: Response): Promise<ApiError> {
  let body: unknown
  try {
    body = await res.json()
  } catch {
    body = undefined
  }
  const error = (body as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | undefined)
    ?.error
  const code = typeof error?.code === 'string' ? (error.code as ErrorCode) : codeForStatus(res.status)
  const message =
    typeof error?.message === 'string' && error.message
      ? error.message
      : `Something went wrong (${res.status}). Please try again.`
  const fields =
    error?.fields && typeof error.fields === 'object' ? (error.fields as Record<string, string>) : undefined
  return new ApiError(res.status, code, message, fields, body)
}

export type QueryParams = Record<string, string | number | boolean | undefined | null>

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  query?: QueryParams
  body?: unknown
  signal?: AbortSignal
}

/** Builds `/api/path?a=1`, leaving out empty values so URLs stay short and cache-friendly. */
export function buildApiUrl(path: string, query?: QueryParams): string {
  const url = `/api${path.startsWith('/') ? path : `/${path}`}`
  if (!query) return url
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue
    params.set(key, String(value))
  }
  const qs = params.toString()
  return qs ? `${url}?${qs}` : url
}

/**
 * Asks the person to confirm it's them (the "Confirm it's you" dialog) when a change answers 403
 * STEP_UP_REQUIRED; resolves true once they did (the call is then made again), false when they cancelled.
 */
export type StepUpHandler = (message: string) => Promise<boolean>

let stepUpHandler: StepUpHandler | null = null

/** The dialog registers itself here while mounted; returns the unregistering. */
export function handleStepUps(handler: StepUpHandler): () => void {
  stepUpHandler = handler
  return () => {
    if (stepUpHandler === handler) stepUpHandler = null
  }
}

/**
 * The only place the web app calls fetch; also hands back the headers (e.g. x-total-count). A change the server
 * refuses for want of a fresh step-up opens "Confirm it's you" and, once confirmed, is made again (once).
 */
export async function apiRequestWithHeaders<T>(
  path: string,
  options: RequestOptions = {},
): Promise<{ data: T; headers: Headers }> {
  try {
    return await requestOnce<T>(path, options)
  } catch (err) {
    const handler = stepUpHandler
    if (!(err instanceof ApiError) || err.code !== 'STEP_UP_REQUIRED' || !handler) throw err
    if (!(await handler(err.message))) throw err
    return requestOnce<T>(path, options)
  }
}

async function requestOnce<T>(path: string, options: RequestOptions): Promise<{ data: T; headers: Headers }> {
  const { method = 'GET', query, body, signal } = options
  const headers: Record<string, string> = { accept: 'application/json' }
  // A form (a file upload) goes as multipart with the boundary the browser writes; anything else as JSON.
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData
  if (body !== undefined && !isForm) headers['content-type'] = 'application/json'
  let res: Response
  try {
    res = await fetch(buildApiUrl(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    })
  } catch (err) {
    if (signal?.aborted) throw err
    throw new ApiError(0, 'NETWORK', 'Could not reach the server. Check your connection and try again.')
  }
  if (!res.ok) throw await toApiError(res)
  if (res.status === 204) return { data: undefined as T, headers: res.headers }
  return { data: (await res.json()) as T, headers: res.headers }
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiRequestWithHeaders<T>(path, options)).data
}

export const api = {
  get: <T>(path: string, query?: QueryParams, signal?: AbortSignal) => apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'POST', body }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PATCH', body }),
  delete: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'DELETE', body }),
  /** One file in the multipart field "file". */
  upload: <T>(path: string, file: Blob, fileName: string) => {
    const form = new FormData()
    form.append('file', file, fileName)
    return apiRequest<T>(path, { method: 'POST', body: form })
  },
}

/** What a toast or an alert says when a call fails: the server's message, or a calm general one. */
export function errorMessage(err: unknown, fallback = 'Something went wrong. Please try again.'): string {
  return isApiError(err) ? err.message : fallback
}
