import { Deleted, IdParams, Inserted, Modified } from '#contract/common'
import { ErrorBody } from '#contract/errors'
import {
  NewProduct,
  Product,
  ProductList,
  ProductPage,
  ProductSearchQuery,
  ProductUpdate,
  SellerProductsQuery,
} from '#contract/products'
import type { AppInstance } from '#server/app'
import { sendJson } from '#server/lib/error-handler'
import { notFound } from '#server/lib/errors'
import { requireRole, requireUser } from '#server/lib/session'
import { getBrand } from '#server/modules/brands/brands.service'
import {
  findAdvertisedProducts,
  findBrandProducts,
  findProductById,
  searchProducts,
} from './products.queries'
import {
  advertiseProduct,
  createProduct,
  deleteProduct,
  findSellerProducts,
  markProductSold,
  updateProduct,
} from './products.service'

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody }

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

  app.post(
    '/products',
    {
      schema: {
        tags: ['products'],
        summary: 'Seller: list a laptop (seller and posting date come from the session and the server)',
        body: NewProduct,
        response: { 201: Inserted, ...errors },
      },
    },
    async (req, reply) => {
      const seller = await requireRole(req, 'seller')
      const id = await createProduct(db, seller, req.body)
      cache.clear()
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/products',
    {
      schema: {
        tags: ['products'],
        summary: "A seller's own listings, available and sold (that seller or an admin)",
        querystring: SellerProductsQuery,
        response: { 200: ProductList, ...errors },
      },
    },
    async (req) => findSellerProducts(db, await requireUser(req), req.query.email),
  )

  app.patch(
    '/products/:id',
    {
      schema: {
        tags: ['products'],
        summary: 'Seller: edit your own available listing',
        params: IdParams,
        body: ProductUpdate,
        response: { 200: Modified, ...errors },
      },
    },
    async (req) => {
      const seller = await requireRole(req, 'seller')
      const modifiedCount = await updateProduct(db, seller, req.params.id, req.body)
      cache.clear()
      return { acknowledged: true, modifiedCount }
    },
  )

  app.delete(
    '/products/:id',
    {
      schema: {
        tags: ['products'],
        summary: 'Seller (own) or admin: take a listing down; bookings and payments keep their record',
        params: IdParams,
        response: { 200: Deleted, ...errors },
      },
    },
    async (req) => {
      const user = await requireRole(req, 'seller', 'admin')
      const deletedCount = await deleteProduct(db, user, req.params.id)
      cache.clear()
      return { acknowledged: true, deletedCount }
    },
  )

  app.put(
    '/advertise/product/:id',
    {
      schema: {
        tags: ['products'],
        summary: 'Seller: advertise your own available listing on the home page',
        params: IdParams,
        response: { 200: Modified, ...errors },
      },
    },
    async (req) => {
      const seller = await requireRole(req, 'seller')
      const modifiedCount = await advertiseProduct(db, seller, req.params.id)
      cache.clear()
      return { acknowledged: true, modifiedCount }
    },
  )

  app.put(
    '/products/:id/sold',
    {
      schema: {
        tags: ['products'],
        summary: 'Seller: mark your own listing sold',
        params: IdParams,
        response: { 200: Modified, ...errors },
      },
    },
    async (req) => {
      const seller = await requireRole(req, 'seller')
      const modifiedCount = await markProductSold(db, seller, req.params.id)
      cache.clear()
      return { acknowledged: true, modifiedCount }
    },
  )
}
