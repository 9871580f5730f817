import { startRegistration } from '@simplewebauthn/browser'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Ended, SessionList } from '#contract/account'
import type { SecurityEvent } from '#contract/audit'
import { api } from '../../lib/api-client'
import { securityKeys, sessionKeys } from '../../lib/query-keys'

/** The signed-in person's own recent security events, newest first. */
export function useSecurityEvents() {
  return useQuery({
    queryKey: securityKeys.events(),
    queryFn: ({ signal }) => api.get<{ items: SecurityEvent[] }>('/me/security-events', undefined, signal),
  })
}

/** Where the person is signed in. */
export function useSessions() {
  return useQuery({
    queryKey: securityKeys.sessions(),
    queryFn: ({ signal }) => api.get<SessionList>('/me/sessions', undefined, signal),
  })
}

/** Ends one session (`id`), or every other one (no id). */
export function useEndSessions() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (id?: string) =>
      api.delete<Ended>(id ? `/me/sessions/${encodeURIComponent(id)}` : '/me/sessions'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: securityKeys.all }),
  })
}

export type Enrolment = { totpURI: string; backupCodes: string[] }

/** Two-step sign-in: start (password), confirm with a first code, turn off (password and code), new backup codes. */
export function useTwoFactor() {
  const queryClient = useQueryClient()
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
      queryClient.invalidateQueries({ queryKey: securityKeys.all }),
    ])
  return {
    start: (password: string) => api.post<Enrolment>('/auth/two-factor/enable', { password }),
    confirm: async (code: string) => {
      await api.post<unknown>('/auth/two-factor/verify-totp', { code: code.replace(/\s/g, '') })
      await refresh()
    },
    turnOff: async (password: string, code: string) => {
      await api.post<unknown>('/auth/two-factor/disable', { password, code: code.trim() })
      await refresh()
    },
    newBackupCodes: async (password: string) => {
      const answer = await api.post<{ backupCodes: string[] }>('/auth/two-factor/generate-backup-codes', {
        password,
      })
      await refresh()
      return answer.backupCodes
    },
  }
}

/** A passkey as the auth library lists it (the public key stays on the server's side of this page). */
export type Passkey = {
  id: string
  name?: string | null
  createdAt: string
  deviceType: string
  backedUp: boolean
}

/** The signed-in person's passkeys. */
export function usePasskeys() {
  return useQuery({
    queryKey: securityKeys.passkeys(),
    queryFn: ({ signal }) => api.get<Passkey[]>('/auth/passkey/list-user-passkeys', undefined, signal),
  })
}

/** Add a passkey (this device's fingerprint, face or PIN, or a security key), rename one, or remove one. */
export function usePasskeyChanges() {
  const queryClient = useQueryClient()
  const refresh = () => queryClient.invalidateQueries({ queryKey: securityKeys.all })
  return {
    add: async (name: string) => {
      const optionsJSON = await api.get<Parameters<typeof startRegistration>[0]['optionsJSON']>(
        '/auth/passkey/generate-register-options',
      )
      const response = await startRegistration({ optionsJSON })
      await api.post<unknown>('/auth/passkey/verify-registration', {
        response,
        name: name.trim() || undefined,
      })
      await refresh()
    },
    rename: async (id: string, name: string) => {
      await api.post<unknown>('/auth/passkey/update-passkey', { id, name: name.trim() })
      await refresh()
    },
    remove: async (id: string) => {
      await api.post<unknown>('/auth/passkey/delete-passkey', { id })
      await refresh()
    },
  }
}

/** Changes the password with the current one; the server ends every other session of the account. */
export function useChangePassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) =>
      api.post<unknown>('/auth/change-password', { ...input, revokeOtherSessions: true }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
        queryClient.invalidateQueries({ queryKey: securityKeys.all }),
      ]),
  })
}
