import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { Deleted } from '#contract/common'
import { FavouriteAlertSetting, FavouriteIds, FavouriteList, FavouriteParams } from '#contract/favourites'
import { ERRORS } from '#server/lib/error-responses'
import { caller, signedIn } from '#server/lib/guard'
import {
  addFavourite,
  findFavouriteAlert,
  findFavouriteIds,
  findFavourites,
  removeFavourite,
  setFavouriteAlert,
} from './favourites.service'

const Acknowledged = z.object({ acknowledged: z.boolean() })

export const favouriteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.get(
    '/favourites',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['favourites'],
        summary: "The caller's favourites: each listing now, the price when saved, and its status",
        response: { 200: FavouriteList, ...ERRORS },
      },
    },
    async (req) => findFavourites(db, caller(req)),
  )

  app.get(
    '/favourites/ids',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['favourites'],
        summary: "The ids of the caller's favourites (the hearts on cards)",
        response: { 200: FavouriteIds, ...ERRORS },
      },
    },
    async (req) => ({ ids: await findFavouriteIds(db, caller(req)) }),
  )

  app.get(
    '/favourites/alerts',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['favourites'],
        summary: 'How the caller hears that a favourite got cheaper or is available again',
        response: { 200: FavouriteAlertSetting, ...ERRORS },
      },
    },
    async (req) => ({ alert: await findFavouriteAlert(db, caller(req)) }),
  )

  app.put(
    '/favourites/alerts',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['favourites'],
        summary: 'Choose instant emails, a daily digest, or none for news on favourites',
        body: FavouriteAlertSetting,
        response: { 200: FavouriteAlertSetting, ...ERRORS },
      },
    },
    async (req) => {
      await setFavouriteAlert(db, caller(req).id, req.body.alert)
      return { alert: req.body.alert }
    },
  )

  app.put(
    '/favourites/:productId',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['favourites'],
        summary: 'Save a listing to the favourites (again: no change)',
        params: FavouriteParams,
        response: { 200: Acknowledged, ...ERRORS },
      },
    },
    async (req) => {
      await addFavourite(db, caller(req), req.params.productId)
      return { acknowledged: true }
    },
  )

  app.delete(
    '/favourites/:productId',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['favourites'],
        summary: 'Remove a listing from the favourites',
        params: FavouriteParams,
        response: { 200: Deleted, ...ERRORS },
      },
    },
    async (req) => ({
      acknowledged: true,
      deletedCount: await removeFavourite(db, caller(req), req.params.productId),
    }),
  )
}
