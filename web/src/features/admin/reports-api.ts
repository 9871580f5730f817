import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { NewReport, Report } from '#contract/reports'
import { api } from '../../lib/api-client'
import { adminKeys, dashboardKeys, productKeys } from '../../lib/query-keys'

export function useOpenReports() {
  return useQuery({
    queryKey: adminKeys.reports(),
    queryFn: ({ signal }) => api.get<Report[]>('/reports', undefined, signal),
  })
}

export type ReportAction = 'dismiss' | 'remove'

/** Dismissing closes one report; removing hides the listing and closes all of its reports. */
export function useResolveReport() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ report, action }: { report: Report; action: ReportAction }) =>
      api.put<{ modifiedCount: number }>(`/reports/${report._id}/${action}`),
    onSuccess: (_res, { action }) => {
      queryClient.invalidateQueries({ queryKey: adminKeys.reports() })
      queryClient.invalidateQueries({ queryKey: dashboardKeys.all })
      if (action === 'remove') queryClient.invalidateQueries({ queryKey: productKeys.all })
    },
  })
}

export function createReport(report: NewReport) {
  return api.post<{ insertedId: string }>('/reports', report)
}
