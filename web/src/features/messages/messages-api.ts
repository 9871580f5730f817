import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Inserted, Modified } from '#contract/common'
import type { Conversation, Message, ReportedMessage } from '#contract/messages'
import { api } from '../../lib/api-client'
import { messageKeys } from '../../lib/query-keys'

/** How often an open conversation asks for new messages: one indexed read, the answer within seconds. */
export const THREAD_POLL_MS = 4000

import { UNREAD_POLL_MS } from './unread-api'

export { UNREAD_POLL_MS, useUnreadMessages } from './unread-api'

/**
 * A booking's conversation, read again every few seconds while the page is visible (React Query pauses
 * interval refetches in a background tab), so a message from any instance shows up without a reload.
 * Reading marks it read, so the unread counts are refreshed after each answer that brought something new.
 */
export function useThread(bookingId: string) {
  const queryClient = useQueryClient()
  return useQuery({
    queryKey: messageKeys.thread(bookingId),
    queryFn: async ({ signal }) => {
      const before = queryClient.getQueryData<Message[]>(messageKeys.thread(bookingId))
      const list = await api.get<Message[]>(
        `/bookings/${encodeURIComponent(bookingId)}/messages`,
        undefined,
        signal,
      )
      if (list.at(-1)?._id !== before?.at(-1)?._id) {
        void queryClient.invalidateQueries({ queryKey: messageKeys.unread() })
        void queryClient.invalidateQueries({ queryKey: messageKeys.conversations() })
      }
      return list
    },
    refetchInterval: THREAD_POLL_MS,
  })
}

/** The signed-in user's conversations, newest message first. */
export function useConversations(enabled = true) {
  return useQuery({
    queryKey: messageKeys.conversations(),
    queryFn: ({ signal }) => api.get<Conversation[]>('/messages/conversations', undefined, signal),
    refetchInterval: UNREAD_POLL_MS,
    enabled,
  })
}

export function useSendMessage(bookingId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: string) =>
      api.post<z.infer<typeof Inserted>>(`/bookings/${encodeURIComponent(bookingId)}/messages`, { body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: messageKeys.thread(bookingId) }),
        queryClient.invalidateQueries({ queryKey: messageKeys.conversations() }),
      ]),
  })
}

export function useReportMessage(bookingId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (messageId: string) =>
      api.post<z.infer<typeof Modified>>(`/messages/${encodeURIComponent(messageId)}/report`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.thread(bookingId) }),
  })
}

/** A conversation read once, without polling or the unread bookkeeping: an admin's read-only view. */
export function useTranscript(bookingId: string, enabled: boolean) {
  return useQuery({
    queryKey: [...messageKeys.all, 'transcript', bookingId],
    queryFn: ({ signal }) =>
      api.get<Message[]>(`/bookings/${encodeURIComponent(bookingId)}/messages`, undefined, signal),
    enabled,
  })
}

/** Admin: messages someone reported, newest report first. */
export function useReportedMessages() {
  return useQuery({
    queryKey: messageKeys.reported(),
    queryFn: ({ signal }) => api.get<ReportedMessage[]>('/messages/reported', undefined, signal),
  })
}
