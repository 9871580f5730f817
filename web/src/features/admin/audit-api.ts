import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { AuditPage } from '#contract/audit'
import { api } from '../../lib/api-client'
import { adminKeys } from '../../lib/query-keys'

export type AuditFilters = {
  actor_email?: string
  kind?: string
  since?: string
  until?: string
  page: number
}

/** A page of the audit log, newest first. */
export function useAuditLog(filters: AuditFilters) {
  return useQuery({
    queryKey: adminKeys.audit(filters),
    queryFn: ({ signal }) => api.get<AuditPage>('/audit-log', { ...filters, page_size: 50 }, signal),
    placeholderData: keepPreviousData,
  })
}
