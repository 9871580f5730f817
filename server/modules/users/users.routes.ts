import { z } from 'zod'
import { Deleted, Inserted, Modified } from '#contract/common'
import { ErrorBody } from '#contract/errors'
import {
  EmailParams,
  IsAdmin,
  IsBuyer,
  IsSeller,
  NewUserRecord,
  Overview,
  UserListQuery,
  UserRecordList,
  VerifySeller,
} from '#contract/users'
import type { AppInstance } from '#server/app'
import { requireRole, requireUser } from '#server/lib/session'
import {
  deleteUser,
  ensureOwnRecord,
  findUsers,
  getOverview,
  hasRole,
  makeAdmin,
  verifySeller,
} from './users.service'

const UserIdParams = z.strictObject({ id: z.string().trim().min(1).max(64) })
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody }

export async function userRoutes(app: AppInstance) {
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
        schema: {
          tags: ['users'],
          summary: `Whether an account is ${lookup.role === 'admin' ? 'an admin' : `a ${lookup.role}`} (your own, or any for admins)`,
          params: EmailParams,
          response: { 200: lookup.answer, ...errors },
        },
      },
      async (req) => {
        const caller = await requireUser(req)
        return { [lookup.key]: await hasRole(db, caller, req.params.email, lookup.role) } as never
      },
    )
  }

  for (const list of ['buyer', 'seller'] as const) {
    const path = `/${list}s`

    app.get(
      path,
      {
        schema: {
          tags: ['users'],
          summary: `Admin: ${list}s, searchable by name or email, a page at a time (total in x-total-count)`,
          querystring: UserListQuery,
          response: { 200: UserRecordList, ...errors },
        },
      },
      async (req, reply) => {
        await requireRole(req, 'admin')
        const { items, total } = await findUsers(db, list, req.query)
        reply.header('x-total-count', String(total))
        return items
      },
    )

    app.post(
      path,
      {
        schema: {
          tags: ['users'],
          summary: `Your own ${list} record after signup (idempotent; never makes an admin)`,
          body: NewUserRecord,
          response: { 200: Inserted, ...errors },
        },
      },
      async (req) => {
        const user = await requireUser(req)
        await ensureOwnRecord(db, user, req.body.email, list)
        return { acknowledged: true, insertedId: user.id }
      },
    )

    app.delete(
      `${path}/:id`,
      {
        schema: {
          tags: ['users'],
          summary: `Admin: delete a ${list} (disables the account and hides its listings; records stay)`,
          params: UserIdParams,
          response: { 200: Deleted.extend({ name: z.string() }), ...errors },
        },
      },
      async (req) => {
        const admin = await requireRole(req, 'admin')
        const { deletedCount, name } = await deleteUser(db, admin, req.params.id, list)
        app.ctx.cache.clear()
        return { acknowledged: true, deletedCount, name }
      },
    )
  }

  app.put(
    '/buyers/admin/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Admin: make a buyer an admin',
        params: UserIdParams,
        response: { 200: Modified, ...errors },
      },
    },
    async (req) => {
      const admin = await requireRole(req, 'admin')
      return { acknowledged: true, modifiedCount: await makeAdmin(db, admin, req.params.id) }
    },
  )

  app.put(
    '/sellers/verify/:id',
    {
      schema: {
        tags: ['users'],
        summary: 'Admin: mark a seller verified (or not); verified sellers carry a badge',
        params: UserIdParams,
        // A PUT without a body reaches the handler as null: verifying is then the default.
        body: VerifySeller.nullish(),
        response: { 200: Modified, ...errors },
      },
    },
    async (req) => {
      const admin = await requireRole(req, 'admin')
      const modifiedCount = await verifySeller(db, admin, req.params.id, req.body?.verified ?? true)
      app.ctx.cache.clear()
      return { acknowledged: true, modifiedCount }
    },
  )

  app.get(
    '/dashboard/overview',
    {
      schema: {
        tags: ['users'],
        summary: 'The counts that matter to the signed-in role',
        response: { 200: Overview, 401: ErrorBody },
      },
    },
    async (req) => getOverview(db, await requireUser(req)),
  )
}
