import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config'

const SECRET = 'x'.repeat(32)

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError)
    return err as ConfigError
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`)
}

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      databaseUrl: undefined,
      redisUrl: undefined,
      publicUrl: 'http://localhost:3000',
      logLevel: 'info',
      publicCacheTtlMs: 2000,
      seedDemo: true,
    })
    expect(config.webDistDir).toBe(path.resolve(import.meta.dirname, '../dist/web'))
  })

  it('parses PORT, and derives the public URL from it', () => {
    const config = loadConfig({ PORT: '8080' })
    expect(config.port).toBe(8080)
    expect(config.publicUrl).toBe('http://localhost:8080')
    expect(loadConfig({ PORT: '8080', PUBLIC_URL: 'https://laptops.example' }).publicUrl).toBe(
      'https://laptops.example',
    )
  })

  it('treats an empty value as unset instead of as zero or as an error', () => {
    const config = loadConfig({ PORT: '', DATA_DIR: ' ', DATABASE_URL: '', PUBLIC_CACHE_TTL_MS: '' })
    expect(config.port).toBe(3000)
    expect(config.dataDir).toBe(path.resolve('./data'))
    expect(config.databaseUrl).toBeUndefined()
    expect(config.publicCacheTtlMs).toBe(2000)
  })

  it.each(['abc', '70000', '-1', '3000.5', 'Infinity'])('rejects PORT=%s, naming the variable', (port) => {
    const err = configError({ PORT: port })
    expect(err.message).toMatch(/^Invalid configuration:/)
    expect(err.message).toContain('PORT')
    expect(err.name).toBe('ConfigError')
  })

  it('resolves DATA_DIR to an absolute path', () => {
    expect(loadConfig({ DATA_DIR: 'var/lm' }).dataDir).toBe(path.resolve('var/lm'))
    expect(loadConfig({ DATA_DIR: '/srv/laptop-market' }).dataDir).toBe('/srv/laptop-market')
  })

  it('takes a PostgreSQL DATABASE_URL as is', () => {
    for (const url of ['postgres://app:secret@db.internal:5432/market', 'postgresql://localhost/market']) {
      expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url)
    }
  })

  it.each(['not a url', 'http://db.internal/market', 'mysql://db/market'])(
    'rejects DATABASE_URL=%s, naming the variable',
    (url) => {
      expect(configError({ DATABASE_URL: url }).message).toContain('DATABASE_URL')
    },
  )

  it("takes DATABASE_STATEMENTS_AT_ONCE from 1 to 100, unset meaning the database client's own number", () => {
    expect(loadConfig({}).databaseStatementsAtOnce).toBeUndefined()
    expect(loadConfig({ DATABASE_STATEMENTS_AT_ONCE: '12' }).databaseStatementsAtOnce).toBe(12)
    for (const bad of ['0', '2.5', 'many', '101'])
      expect(configError({ DATABASE_STATEMENTS_AT_ONCE: bad }).message).toContain(
        'DATABASE_STATEMENTS_AT_ONCE',
      )
  })

  it('sends email through SMTP_URL, else saves it under DATA_DIR/mail, from MAIL_FROM or the public host', () => {
    expect(loadConfig({ DATA_DIR: '/srv/lm', PUBLIC_URL: 'https://laptops.example.com' }).mail).toEqual({
      smtpUrl: undefined,
      from: 'Laptop Market <no-reply@laptops.example.com>',
      dir: '/srv/lm/mail',
    })
    const smtp = loadConfig({
      SMTP_URL: 'smtps://u:p@smtp.example.com:465',
      MAIL_FROM: 'Shop <shop@example.com>',
    })
    expect(smtp.mail).toMatchObject({
      smtpUrl: 'smtps://u:p@smtp.example.com:465',
      from: 'Shop <shop@example.com>',
    })
    expect(configError({ SMTP_URL: 'http://smtp.example.com' }).message).toContain('SMTP_URL')
    expect(configError({ MAIL_FROM: 'nobody' }).message).toContain('MAIL_FROM')
  })

  it('names every bad variable at once', () => {
    const err = configError({ PORT: 'x', NODE_ENV: 'staging', LOG_LEVEL: 'loud', PUBLIC_CACHE_TTL_MS: '-5' })
    for (const name of ['PORT', 'NODE_ENV', 'LOG_LEVEL', 'PUBLIC_CACHE_TTL_MS'])
      expect(err.message).toContain(name)
  })

  it('seeds demo data outside production unless told never to', () => {
    expect(loadConfig({ NODE_ENV: 'development' }).seedDemo).toBe(true)
    expect(loadConfig({ NODE_ENV: 'test' }).seedDemo).toBe(true)
    expect(loadConfig({ SEED_DEMO: 'never' }).seedDemo).toBe(false)
  })

  it('never seeds in production, even when SEED_DEMO=auto', () => {
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET }).seedDemo).toBe(false)
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET, SEED_DEMO: 'auto' }).seedDemo).toBe(
      false,
    )
  })

  it('accepts PUBLIC_CACHE_TTL_MS=0, which turns the public cache off', () => {
    expect(loadConfig({ PUBLIC_CACHE_TTL_MS: '0' }).publicCacheTtlMs).toBe(0)
  })

  it('reads TRUST_PROXY as off by default, true, a hop count, or proxy addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false)
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,10.0.0.2' }).trustProxy).toBe('10.0.0.1,10.0.0.2')
  })
})
