import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { AdminDashboard, BuyerDashboard, SellerDashboard } from '#contract/dashboard'
import { errorResponses } from '#server/lib/error-responses'
import { caller, role } from '#server/lib/guard'
import { getAdminDashboard, getBuyerDashboard, getSellerDashboard } from './dashboard.service'

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.get(
    '/dashboard/seller',
    {
      config: { guard: role('seller') },
      schema: {
        tags: ['dashboard'],
        summary:
          "Seller: your listings' views, favourites and bookings per day over the last 30 days, and your money on its way and released",
        response: { 200: SellerDashboard, ...errorResponses(401, 403) },
      },
    },
    async (req) => getSellerDashboard(db, caller(req)),
  )

  app.get(
    '/dashboard/admin',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['dashboard'],
        summary:
          'Admin: new listings, bookings, payments, reports and disputes per day over the last 30 days, and the listing → booking → payment funnel',
        response: { 200: AdminDashboard, ...errorResponses(401, 403) },
      },
    },
    async () => getAdminDashboard(db),
  )

  app.get(
    '/dashboard/buyer',
    {
      config: { guard: role('buyer') },
      schema: {
        tags: ['dashboard'],
        summary: 'Buyer: your orders in progress, each with what to do next',
        response: { 200: BuyerDashboard, ...errorResponses(401, 403) },
      },
    },
    async (req) => getBuyerDashboard(db, caller(req)),
  )
}
