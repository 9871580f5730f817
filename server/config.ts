import path from 'node:path'
import { z } from 'zod'

const optionalUrl = (protocol: RegExp) => z.string().trim().pipe(z.url({ protocol })).optional()

const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(/^postgres(ql)?$/),
  REDIS_URL: optionalUrl(/^rediss?$/),
  PUBLIC_URL: optionalUrl(/^https?$/),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PUBLIC_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  SEED_DEMO: z.enum(['auto', 'never']).default('auto'),
  TRUST_PROXY: z.string().trim().max(500).default('false'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(100_000).default(300),
  AUTH_SECRET: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.url().optional(),
})

export type Config = {
  env: 'development' | 'production' | 'test'
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  redisUrl: string | undefined
  publicUrl: string
  logLevel: z.infer<typeof Env>['LOG_LEVEL']
  publicCacheTtlMs: number
  seedDemo: boolean
  webDistDir: string
  /** Signs session cookies and access tokens. Required in production; elsewhere one is kept in DATA_DIR. */
  authSecret: string | undefined
  accessTokenTtlSeconds: number
  /** Changes (POST, PUT, PATCH, DELETE) allowed per client address per minute; 0 turns the limit off. */
  rateLimitPerMinute: number
  /** Which proxies' X-Forwarded-For to believe for the client address (limits are per address). */
  trustProxy: boolean | number | string
  /** Present when "Continue with Google" is configured; the issuer is configurable for local providers. */
  google: { clientId: string; clientSecret: string; issuer: string } | undefined
  /** Present when card payments go through Stripe; otherwise the built-in test processor runs. */
  stripe:
    | { secretKey: string; publishableKey: string; webhookSecret: string; apiBase: string | undefined }
    | undefined
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** `PORT=` in a shell or an .env file means "not set": without this, PORT= would listen on a random port. */
function dropEmptyValues(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => (entry[1] ?? '').trim() !== ''),
  )
}

/** The only place that reads the environment. A bad value stops the process with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(dropEmptyValues(env))
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET) {
    throw new ConfigError('Invalid configuration:\n  AUTH_SECRET: required when NODE_ENV=production')
  }
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: set both or neither',
    )
  }
  const stripeKeys = [e.STRIPE_SECRET_KEY, e.STRIPE_PUBLISHABLE_KEY, e.STRIPE_WEBHOOK_SECRET]
  if (stripeKeys.some(Boolean) && !stripeKeys.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET: set all three or none',
    )
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    publicCacheTtlMs: e.PUBLIC_CACHE_TTL_MS,
    seedDemo: e.SEED_DEMO === 'auto' && e.NODE_ENV !== 'production',
    webDistDir: path.resolve(import.meta.dirname, '../dist/web'),
    authSecret: e.AUTH_SECRET,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxy:
      e.TRUST_PROXY === 'false' || e.TRUST_PROXY === ''
        ? false
        : e.TRUST_PROXY === 'true'
          ? true
          : /^\d+$/.test(e.TRUST_PROXY)
            ? Number(e.TRUST_PROXY)
            : e.TRUST_PROXY,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.GOOGLE_ISSUER }
        : undefined,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            apiBase: e.STRIPE_API_BASE,
          }
        : undefined,
  }
}
