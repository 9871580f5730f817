import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { EmailPreferencesUpdate, EmailSettings } from '#contract/email-preferences'
import { api } from '../../lib/api-client'
import { emailSettingsKeys } from '../../lib/query-keys'

export function useEmailSettings() {
  return useQuery({
    queryKey: emailSettingsKeys.mine(),
    queryFn: ({ signal }) => api.get<EmailSettings>('/email-settings', undefined, signal),
  })
}

export function useUpdateEmailPreferences() {
  const client = useQueryClient()
  const mutation = useMutation({
    mutationFn: (change: EmailPreferencesUpdate) => api.put<EmailSettings>('/email-settings', change),
    onSuccess: (settings) => client.setQueryData(emailSettingsKeys.mine(), settings),
  })
  // The cached settings take the change at once; a refused change puts the old settings back.
  const mutate = (change: EmailPreferencesUpdate, onRefused?: () => void) => {
    const before = client.getQueryData<EmailSettings>(emailSettingsKeys.mine())
    if (before) {
      client.setQueryData<EmailSettings>(emailSettingsKeys.mine(), {
        ...before,
        topics: { ...before.topics, ...change },
      })
    }
    mutation.mutate(change, {
      onError: () => {
        if (before) client.setQueryData(emailSettingsKeys.mine(), before)
        onRefused?.()
      },
    })
  }
  return { ...mutation, mutate }
}
