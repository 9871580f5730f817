import type { FastifyBaseLogger } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Deleted, IdParams, Inserted, Modified } from '#contract/common'
import { ReviewState } from '#contract/listing-reviews'
import {
  NewProduct,
  Product,
  ProductList,
  ProductModified,
  ProductUpdate,
  SellerCountsQuery,
  SellerListingCounts,
  SellerProductsQuery,
} from '#contract/products'
import { kickAlertMatching } from '#server/lib/alert-events'
import { audited } from '#server/lib/audit'
import { sendJson } from '#server/lib/error-handler'
import { ERRORS } from '#server/lib/error-responses'
import { notFound } from '#server/lib/errors'
import { caller, role, signedIn } from '#server/lib/guard'
import { SENDS_KEPT_JSON } from '#server/lib/kept-json'
import { setPagingHeaders } from '#server/lib/paging'
import { renewProduct } from './expiry'
import { findAdvertisedProducts, findProductById } from './products.queries'
import {
  advertiseProduct,
  createProduct,
  deleteProduct,
  findSellerListingCounts,
  findSellerProducts,
  markProductSold,
  updateProduct,
} from './products.service'

export const productRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, cache, config, storage, fetchImage } = app.ctx
  // Alerts are matched by a job once the change has committed; the minute's sweep catches any kick lost here.
  const matchAlertsSoon = (log: FastifyBaseLogger) => {
    kickAlertMatching(app.ctx.jobs).catch((err) => log.warn({ err }, 'Could not queue alert matching'))
  }

  app.get(
    '/advertised_product',
    {
      ...SENDS_KEPT_JSON,
      schema: {
        tags: ['products'],
        summary: 'Advertised laptops that are still available',
        response: { 200: ProductList },
      },
    },
    async (_req, reply) => sendJson(reply, await cache.get('advertised', () => findAdvertisedProducts(db))),
  )

  app.get(
    '/products/:id',
    { schema: { tags: ['products'], summary: 'One laptop', params: IdParams, response: { 200: Product } } },
    async (req) => {
      // Signed in or not: a listing under review exists only for its seller and admins.
      const viewer = await app.ctx.sessions.get(req).catch(() => null)
      const product = await findProductById(db, req.params.id, viewer)
      if (!product) throw notFound('Product')
      return product
    },
  )

  app.post(
    '/products',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['products'],
        summary: 'Seller: list a laptop (seller and posting date come from the session and the server)',
        body: NewProduct,
        response: { 201: Inserted.extend({ review_state: ReviewState }), ...ERRORS },
      },
    },
    async (req, reply) => {
      const seller = caller(req)
      const { id, reviewState } = await createProduct(
        db,
        seller,
        req.body,
        { storage, fetchImage },
        config.listingReviewFirst,
      )
      if (reviewState === 'approved') matchAlertsSoon(req.log)
      return reply.code(201).send({ acknowledged: true, insertedId: id, review_state: reviewState })
    },
  )

  app.get(
    '/products',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['products'],
        summary:
          "A seller's own listings, available and sold (that seller or an admin), each with where it stands; `state` keeps one state's, `product` one listing",
        querystring: SellerProductsQuery,
        response: { 200: ProductList, ...ERRORS },
      },
    },
    async (req, reply) => {
      const page = await findSellerProducts(
        db,
        caller(req),
        req.query.email,
        req.query,
        config.deal.autoCompleteDays,
        config.listingExpiryDays,
        config.deal.inspectionDays,
      )
      setPagingHeaders(req, reply, page)
      return page.items
    },
  )

  app.get(
    '/products/states',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['products'],
        summary:
          "How many of a seller's own listings need them (a sale to hand over), are on sale, wait for review, are sold or ended (that seller or an admin)",
        querystring: SellerCountsQuery,
        response: { 200: SellerListingCounts, ...ERRORS },
      },
    },
    async (req) => findSellerListingCounts(db, caller(req), req.query.email),
  )

  app.patch(
    '/products/:id',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['products'],
        summary: 'Seller: edit your own available listing',
        params: IdParams,
        body: ProductUpdate,
        response: { 200: ProductModified, ...ERRORS },
      },
    },
    async (req) => {
      const seller = caller(req)
      const { modified, notices } = await updateProduct(
        db,
        seller,
        req.params.id,
        req.body,
        { storage, fetchImage },
        config.listingReviewFirst,
        app.ctx.mail,
      )
      if (req.body.resale_price !== undefined) matchAlertsSoon(req.log)
      // The seed's answer, with `notices` only when there is something to tell.
      return notices.length > 0
        ? { acknowledged: true, modifiedCount: modified, notices }
        : { acknowledged: true, modifiedCount: modified }
    },
  )

  app.delete(
    '/products/:id',
    {
      config: { guard: role('seller', 'admin'), audit: 'product.remove' },
      schema: {
        tags: ['products'],
        summary: 'Seller (own) or admin: take a listing down; bookings and payments keep their record',
        params: IdParams,
        response: { 200: Deleted, ...ERRORS },
      },
    },
    async (req) => {
      const deletedCount = await audited(req, `product:${req.params.id}`, (tx) =>
        deleteProduct(tx, caller(req), req.params.id, app.ctx.mail),
      )
      return { acknowledged: true, deletedCount }
    },
  )

  app.put(
    '/advertise/product/:id',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['products'],
        summary: 'Seller: advertise your own available listing on the home page',
        params: IdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await advertiseProduct(db, caller(req), req.params.id)
      return { acknowledged: true, modifiedCount }
    },
  )

  app.put(
    '/products/:id/renew',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['products'],
        summary:
          'Seller: renew your own listing; its expiry clock starts again and an expired listing is back in search and on the home page',
        params: IdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await renewProduct(db, caller(req), req.params.id)
      matchAlertsSoon(req.log)
      return { acknowledged: true, modifiedCount }
    },
  )

  app.put(
    '/products/:id/sold',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['products'],
        summary: 'Seller: mark your own listing sold',
        params: IdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await markProductSold(db, caller(req), req.params.id, app.ctx.mail)
      return { acknowledged: true, modifiedCount }
    },
  )
}
