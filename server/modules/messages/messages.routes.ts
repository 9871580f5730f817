import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { IdParams, Inserted, Modified } from '#contract/common'
import {
  ConversationList,
  MessageList,
  NewMessage,
  ReportedMessageList,
  UnreadCount,
} from '#contract/messages'
import { ERRORS, errorResponses } from '#server/lib/error-responses'
import { caller, role, signedIn } from '#server/lib/guard'
import {
  countUnread,
  findConversations,
  findReportedMessages,
  findThread,
  reportMessage,
  sendMessage,
} from './messages.service'

export const messageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx

  app.get(
    '/bookings/:id/messages',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['messages'],
        summary:
          "A booking's conversation, oldest first (its buyer and the listing's seller; an admin only with a dispute or a reported message). Marks it read.",
        params: IdParams,
        response: { 200: MessageList, ...ERRORS },
      },
    },
    async (req) => findThread(db, caller(req), req.params.id),
  )

  app.post(
    '/bookings/:id/messages',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['messages'],
        summary: "Write in a booking's conversation (its buyer or the listing's seller; a few a minute)",
        params: IdParams,
        body: NewMessage,
        response: { 201: Inserted, ...ERRORS, ...errorResponses(429) },
      },
    },
    async (req, reply) => {
      const id = await sendMessage(app.ctx, caller(req), req.params.id, req.body)
      return reply.code(201).send({ acknowledged: true, insertedId: id })
    },
  )

  app.get(
    '/messages/unread',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['messages'],
        summary: 'Messages the signed-in user has not read, in all and per booking',
        response: { 200: UnreadCount, ...ERRORS },
      },
    },
    async (req) => countUnread(db, caller(req)),
  )

  app.get(
    '/messages/conversations',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['messages'],
        summary: "The signed-in user's conversations, newest message first, with unread counts",
        response: { 200: ConversationList, ...ERRORS },
      },
    },
    async (req) => findConversations(db, caller(req)),
  )

  app.post(
    '/messages/:id/report',
    {
      config: { guard: signedIn },
      schema: {
        tags: ['messages'],
        summary: 'Report a message you received (admins may then read the conversation)',
        params: IdParams,
        response: { 200: Modified, ...ERRORS },
      },
    },
    async (req) => {
      const modifiedCount = await reportMessage(db, caller(req), req.params.id)
      return { acknowledged: true, modifiedCount }
    },
  )

  app.get(
    '/messages/reported',
    {
      config: { guard: role('admin') },
      schema: {
        tags: ['messages'],
        summary: 'Admin: reported messages, newest report first',
        response: { 200: ReportedMessageList, ...ERRORS },
      },
    },
    async () => findReportedMessages(db),
  )
}
