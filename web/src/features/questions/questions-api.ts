import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { z } from 'zod'
import type { Deleted, Inserted, Modified } from '#contract/common'
import type { PublicQuestion, QuestionList, QuestionRole, UnansweredQuestions } from '#contract/questions'
import { api } from '../../lib/api-client'
import { questionKeys } from '../../lib/query-keys'

type InsertedAnswer = z.infer<typeof Inserted>
type ModifiedAnswer = z.infer<typeof Modified>
type DeletedAnswer = z.infer<typeof Deleted>

/** A listing's public questions and answers (rendered with the listing's page on the server). */
export function usePublicQuestions(productId: string) {
  return useQuery({
    queryKey: questionKeys.public(productId),
    queryFn: ({ signal }) =>
      api.get<PublicQuestion[]>(`/products/${encodeURIComponent(productId)}/questions`, undefined, signal),
    retryOnMount: false,
  })
}

/** Questions about the caller's listings, or those they asked. */
export function useQuestions(role: QuestionRole, enabled = true) {
  return useQuery({
    queryKey: questionKeys.list(role),
    queryFn: ({ signal }) => api.get<QuestionList>('/questions', { role }, signal),
    enabled,
  })
}

/** How many questions about the caller's listings wait for an answer (the dashboard menu's count). */
export function useUnansweredQuestions(enabled = true) {
  return useQuery({
    queryKey: questionKeys.unanswered(),
    queryFn: ({ signal }) => api.get<UnansweredQuestions>('/questions/unanswered', undefined, signal),
    refetchInterval: 60_000,
    enabled,
  })
}

export function useAskQuestion() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { productId: string; body: string }) =>
      api.post<InsertedAnswer>(`/products/${encodeURIComponent(input.productId)}/questions`, {
        body: input.body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: questionKeys.list('asker') }),
  })
}

export function useAnswerQuestion() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: { id: string; answer: string; public: boolean }) =>
      api.put<ModifiedAnswer>(`/questions/${encodeURIComponent(input.id)}/answer`, {
        answer: input.answer,
        public: input.public,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: questionKeys.all }),
  })
}

/** Block (or unblock) the asker of a question. */
export function useBlockAsker() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (input: { id: string; block: boolean }): Promise<number> => {
      const url = `/questions/${encodeURIComponent(input.id)}/block`
      if (input.block) return (await api.post<ModifiedAnswer>(url)).modifiedCount
      return (await api.delete<DeletedAnswer>(url)).deletedCount
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: questionKeys.all }),
  })
}
