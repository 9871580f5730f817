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
  return useMutation({
    mutationFn: (change: EmailPreferencesUpdate) => api.put<EmailSettings>('/email-settings', change),
    // The box shows its new state at once; a refused change puts the old settings back.
    onMutate: async (change) => {
      await client.cancelQueries({ queryKey: emailSettingsKeys.mine() })
      const before = client.getQueryData<EmailSettings>(emailSettingsKeys.mine())
      if (before) {
        client.setQueryData<EmailSettings>(emailSettingsKeys.mine(), {
          ...before,
          topics: { ...before.topics, ...change },
        })
      }
      return { before }
    },
    onError: (_err, _change, context) => {
      if (context?.before) client.setQueryData(emailSettingsKeys.mine(), context.before)
    },
    onSuccess: (settings) => client.setQueryData(emailSettingsKeys.mine(), settings),
  })
}

/** Better Auth sends the confirmation link again (at most a few per quarter hour). */
export function resendVerificationEmail(email: string) {
  return api.post<{ status: boolean }>('/auth/send-verification-email', {
    email,
    callbackURL: '/dashboard/settings',
  })
}
