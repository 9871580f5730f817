import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform } from 'fastify-type-provider-zod'
import { SECURITY_SCHEMES } from '#server/lib/guard'

/** The OpenAPI description, built from the routes' zod schemas, and its reader at /api/docs. */
export async function apiDocsPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Laptop Market API',
        version: '1.0.0',
        description: 'A marketplace for used laptops. Errors are `{ error: { code, message, fields? } }`.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: jsonSchemaTransform,
  })
  await app.register(swaggerUi, { routePrefix: '/api/docs' })
}
