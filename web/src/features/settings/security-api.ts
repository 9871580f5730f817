import { useQuery } from '@tanstack/react-query'
import type { SecurityEvent } from '#contract/audit'
import { api } from '../../lib/api-client'
import { securityKeys } from '../../lib/query-keys'

/** The signed-in person's own recent security events, newest first. */
export function useSecurityEvents() {
  return useQuery({
    queryKey: securityKeys.events(),
    queryFn: ({ signal }) => api.get<{ items: SecurityEvent[] }>('/me/security-events', undefined, signal),
  })
}
