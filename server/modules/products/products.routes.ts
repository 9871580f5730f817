import { IdParams } from '#contract/common'
import { Product, ProductList, ProductPage, ProductSearchQuery } from '#contract/products'
import type { AppInstance } from '#server/app'
import { sendJson } from '#server/lib/error-handler'
import { notFound } from '#server/lib/errors'
import { getBrand } from '#server/modules/brands/brands.service'
import {
  findAdvertisedProducts,
  findBrandProducts,
  findProductById,
  searchProducts,
} from './products.queries'

export async function productRoutes(app: AppInstance) {
  const { db, cache } = app.ctx

  app.get(
    '/advertised_product',
    {
      schema: {
        tags: ['products'],
        summary: 'Advertised laptops that are still available',
        response: { 200: ProductList },
      },
    },
    async (_req, reply) => sendJson(reply, await cache.get('advertised', () => findAdvertisedProducts(db))),
  )

  app.get(
    '/category/:id',
    {
      schema: {
        tags: ['products'],
        summary: "A brand's available laptops",
        params: IdParams,
        response: { 200: ProductList },
      },
    },
    async (req, reply) => {
      const body = await cache.get(`category:${req.params.id}`, async () => {
        await getBrand(db, req.params.id)
        return findBrandProducts(db, req.params.id)
      })
      return sendJson(reply, body)
    },
  )

  app.get(
    '/products/:id',
    { schema: { tags: ['products'], summary: 'One laptop', params: IdParams, response: { 200: Product } } },
    async (req) => {
      const product = await findProductById(db, req.params.id)
      if (!product) throw notFound('Product')
      return product
    },
  )

  app.get(
    '/search',
    {
      schema: {
        tags: ['products'],
        summary: 'Browse available laptops with filters, a page at a time',
        querystring: ProductSearchQuery,
        response: { 200: ProductPage },
      },
    },
    async (req) => searchProducts(db, req.query),
  )
}
