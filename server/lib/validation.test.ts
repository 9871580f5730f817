import Fastify from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { zodValidatorCompiler } from './validation'

async function appWith(query: z.ZodType) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>()
  app.setValidatorCompiler(zodValidatorCompiler)
  app.get('/list', { schema: { querystring: query } }, async (req) => {
    const seen = { ...(req.query as object) }
    // A handler that changes its query must not change the next request's.
    ;(req.query as Record<string, unknown>).page = 99
    return seen
  })
  await app.ready()
  return app
}

describe('the validator compiler', () => {
  it("answers an empty query with the schema's own answer, a fresh copy each time", async () => {
    const app = await appWith(z.strictObject({ page: z.coerce.number().int().min(1).default(1) }))
    for (let i = 0; i < 2; i++) expect((await app.inject({ url: '/list' })).json()).toEqual({ page: 1 })
    expect((await app.inject({ url: '/list?' })).json()).toEqual({ page: 1 })
  })

  it('checks any query given in full', async () => {
    const app = await appWith(z.strictObject({ page: z.coerce.number().int().min(1).default(1) }))
    expect((await app.inject({ url: '/list?page=3' })).json()).toEqual({ page: 3 })
    expect((await app.inject({ url: '/list?page=0' })).statusCode).toBe(400)
    expect((await app.inject({ url: '/list?other=1' })).statusCode).toBe(400)
  })

  it('refuses an empty query its schema refuses', async () => {
    const app = await appWith(z.strictObject({ q: z.string().min(1) }))
    expect((await app.inject({ url: '/list' })).statusCode).toBe(400)
    expect((await app.inject({ url: '/list?q=dell' })).json()).toEqual({ q: 'dell' })
  })
})
