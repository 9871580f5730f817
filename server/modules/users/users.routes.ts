import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { Deleted, Inserted, Modified } from '#contract/common'
import {
  EmailParams,
  IsAdmin,
  IsBuyer,
  IsSeller,
  NewUserRecord,
  Overview,
  StartSelling,
  UserListQuery,
  UserRecordList,
  VerifySeller,
} from '#contract/users'
import { audited } from '#server/lib/audit'
import { ERRORS, errorResponses } from '#server/lib/error-responses'
import { caller, role, signedIn } from '#server/lib/guard'
import {
  deleteUser,
  ensureOwnRecord,
  findUsers,
  getOverview,
  hasRole,
  makeAdmin,
  removeAdmin,
  startSelling,
  verifySeller,
} from './users.service'

const UserIdParams = z.strictObject({ id: z.string().trim().min(1).max(64) })

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  const roleLookups = [
    { path: '/admin/:email', role: 'admin', answer: IsAdmin, key: 'isAdmin' },
    { path: '/buyers/:email', role: 'buyer', answer: IsBuyer, key: 'isBuyer' },
    { path: '/sellers/:email', role: 'seller', answer: IsSeller, key: 'isSeller' },
  ] as const
  for (const lookup of roleLookups) {
    app.get(
      lookup.path,
      {
        config: { guard: signedIn },
        schema: {
          tags: ['users'],
          summary: `Whether an account is ${lookup.role === 'admin' ? 'an admin' : `a ${lookup.role}`} (your own, or any for admins)`,
          params: EmailParams,
          response: { 200: lookup.answer, ...ERRORS },
        },
      },
      async (req) => {
        return { [lookup.key]: await hasRole(db, caller(req), req.params.email, lookup.role) } as never
      },
    )
  }

  for (const list of ['buyer', 'seller'] as const) {
    const path = `/${list}s`

    app.get(
      path,
      {
        config: { guard: role('admin') },
        schema: {
          tags: ['users'],
          summary: `Admin: ${list}s, searchable by name or email, a page at a time (total in x-total-count)`,
          querystring: UserListQuery,
          response: { 200: UserRecordList, ...ERRORS },
        },
      },
      async (req, reply) => {
        const { items, total } = await findUsers(db, list, req.query)
        reply.header('x-total-count', String(total))
        return items
      },
    )

    app.post(
      path,
      {
        config: { guard: signedIn },
        schema: {
          tags: ['users'],
          summary: `Your own ${list} record after signup (idempotent; never makes an admin)`,
          body: NewUserRecord,
          response: { 200: Inserted, ...ERRORS },
        },
      },
      async (req) => {
        const user = caller(req)
        await ensureOwnRecord(db, user, req.body.email, list)
        return { acknowledged: true, insertedId: user.id }
      },
    )

    app.delete(
      `${path}/:id`,
      {
        config: { guard: role('admin'), audit: 'user.delete' },
        schema: {
          tags: ['users'],
          summary: `Admin: delete a ${list} (disables the account and hides its listings; records stay)`,
          params: UserIdParams,
          response: { 200: Deleted.extend({ name: z.string() }), ...ERRORS },
        },
      },
      async (req) => {
        const { deletedCount, name } = await audited(req, `user:${req.params.id}`, (tx) =>
          deleteUser(tx, caller(req), req.params.id, list, app.ctx.mail),
        )
        await app.ctx.sessions.endAll(req.params.id)
        return { acknowledged: true, deletedCount, name }
      },
    )
  }

  app.put(
    '/buyers/admin/:id',
    {
      config: { guard: role('admin'), audit: 'user.make_admin' },
      schema: {
        tags: ['users'],
        summary: 'Admin: make a buyer an admin',
        params: UserIdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await audited(req, `user:${req.params.id}`, (tx) =>
        makeAdmin(tx, caller(req), req.params.id),
      )
      return { acknowledged: true, modifiedCount }
    },
  )

  app.delete(
    '/buyers/admin/:id',
    {
      config: { guard: role('admin'), audit: 'user.remove_admin' },
      schema: {
        tags: ['users'],
        summary: 'Admin: make another admin a buyer again (never yourself, never the last admin)',
        params: UserIdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await audited(req, `user:${req.params.id}`, (tx) =>
        removeAdmin(tx, caller(req), req.params.id),
      )
      return { acknowledged: true, modifiedCount }
    },
  )

  app.put(
    '/sellers/verify/:id',
    {
      config: { guard: role('admin'), audit: 'seller.verify' },
      schema: {
        tags: ['users'],
        summary: 'Admin: mark a seller verified (or not); verified sellers carry a badge',
        params: UserIdParams,
        // A PUT without a body reaches the handler as null: verifying is then the default.
        body: VerifySeller.nullish(),
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await audited(req, `user:${req.params.id}`, (tx) =>
        verifySeller(tx, caller(req), req.params.id, req.body?.verified ?? true),
      )
      return { acknowledged: true, modifiedCount }
    },
  )

  app.get(
    '/dashboard/overview',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['users'],
        summary: 'The counts that matter to the signed-in role',
        response: { 200: Overview, ...errorResponses(401) },
      },
    },
    async (req) => getOverview(db, caller(req)),
  )

  app.post(
    '/me/start-selling',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['users'],
        summary:
          'A buyer starts selling from the same account (phone and seller terms); their purchases stay, and the account answers isBuyer and isSeller',
        body: StartSelling,
        response: {
          200: z.object({ acknowledged: z.literal(true), modifiedCount: z.number().int() }),
          ...ERRORS,
        },
      },
    },
    async (req) => {
      await startSelling(db, caller(req), req.body)
      return { acknowledged: true as const, modifiedCount: 1 }
    },
  )
}
