import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { Deleted, IdParams, Inserted, Modified } from '#contract/common'
import {
  NewSavedSearch,
  SavedSearchAlertUpdate,
  SavedSearchList,
  SavedSearchVisit,
} from '#contract/saved-searches'
import { ERRORS } from '#server/lib/error-responses'
import { caller, signedIn } from '#server/lib/guard'
import {
  deleteSavedSearch,
  findSavedSearches,
  saveSearch,
  setSavedSearchAlert,
  visitSavedSearch,
} from './saved-searches.service'

export const savedSearchRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.post(
    '/saved-searches',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['saved searches'],
        summary:
          'Save a /productcard search with its alert (instant, daily or off); saving the same search again changes its alert',
        body: NewSavedSearch,
        response: { 201: Inserted, ...ERRORS },
      },
    },
    async (req, reply) => {
      const id = await saveSearch(db, caller(req), req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/saved-searches',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['saved searches'],
        summary: "The caller's saved searches, each with its new matches since the last visit",
        response: { 200: SavedSearchList, ...ERRORS },
      },
    },
    async (req) => findSavedSearches(db, caller(req)),
  )

  app.delete(
    '/saved-searches/:id',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['saved searches'],
        summary: 'Delete a saved search (its owner)',
        params: IdParams,
        response: { 200: Deleted, ...ERRORS },
      },
    },
    async (req) => ({
      acknowledged: true,
      deletedCount: await deleteSavedSearch(db, caller(req), req.params.id),
    }),
  )

  app.put(
    '/saved-searches/:id/alert',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['saved searches'],
        summary: "Change a saved search's alert: instant, daily or off (its owner)",
        params: IdParams,
        body: SavedSearchAlertUpdate,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => ({
      acknowledged: true,
      modifiedCount: await setSavedSearchAlert(db, caller(req), req.params.id, req.body.alert),
    }),
  )

  app.post(
    '/saved-searches/:id/visit',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['saved searches'],
        summary:
          'Open a saved search: the time of the last visit (newer laptops are new), then the visit is now',
        params: IdParams,
        response: { 200: SavedSearchVisit, ...ERRORS },
      },
    },
    async (req) => visitSavedSearch(db, caller(req), req.params.id),
  )
}
