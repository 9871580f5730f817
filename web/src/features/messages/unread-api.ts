import type { UnreadCount } from '#contract/messages'
import { api } from '../../lib/api-client'
import { useAnswer } from '../../lib/bindings'
import { messageKeys } from '../../lib/query-keys'

/** How often the navbar and the lists ask for the unread counts. */
export const UNREAD_POLL_MS = 20_000

/** The signed-in user's unread messages, in all and per booking (navbar, My Orders, My Product). */
export function useUnreadMessages(enabled = true) {
  return useAnswer({
    queryKey: messageKeys.unread(),
    queryFn: ({ signal }) => api.get<UnreadCount>('/messages/unread', undefined, signal),
    refetchInterval: UNREAD_POLL_MS,
    enabled,
  })
}
