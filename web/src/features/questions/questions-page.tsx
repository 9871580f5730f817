import { type FormEvent, useId, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { paths } from '#contract/pages'
import { ANSWER_MAX, type Question } from '#contract/questions'
import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { Button } from '../../components/ui/button'
import { ListSkeleton } from '../../components/ui/list-skeleton'
import { PageHeader } from '../../components/ui/page-header'
import { isApiError } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useSession } from '../auth'
import { useAnswerQuestion, useBlockAsker, useQuestions } from './questions-api'

/**
 * `/dashboard/questions`: questions buyers asked about the caller's listings, unanswered first, each answered in
 * place (shown on the listing or kept for the asker) and its asker blockable; `?tab=asked`, the questions they asked.
 */
export function QuestionsPage() {
  const { user } = useSession()
  const [params] = useSearchParams()
  const asked = params.get('tab') === 'asked' || (params.get('tab') === null && user?.role === 'buyer')
  const role = asked ? 'asker' : 'seller'
  const questions = useQuestions(role, Boolean(user))
  const unanswered = role === 'seller' ? (questions.data?.unanswered ?? 0) : 0
  const tab = (isAsked: boolean, label: string) => (
    <Link
      to={isAsked ? paths.questions('asked') : `${paths.questions()}?tab=yours`}
      aria-current={isAsked === asked ? 'page' : undefined}
      className={`inline-flex min-h-11 items-center rounded-lg px-3 font-medium text-sm ${
        isAsked === asked ? 'bg-accent-soft text-accent-ink' : 'text-slate-700 hover:bg-slate-100'
      }`}
    >
      {label}
    </Link>
  )
  return (
    <>
      <title>Questions · Laptop Market</title>
      <PageHeader title="Questions">
        <p>
          Questions buyers ask before booking, and the ones you asked. An answer can be shown on the listing,
          with the asker's first name only.
        </p>
      </PageHeader>
      <nav aria-label="Questions" className="mb-4 flex flex-wrap gap-2">
        {tab(false, 'About your laptops')}
        {tab(true, 'Questions you asked')}
      </nav>
      {role === 'seller' && questions.data ? (
        <p className="mb-4 text-slate-700 text-sm" data-testid="unanswered-count">
          {unanswered === 0
            ? 'Every question is answered.'
            : `${unanswered} ${unanswered === 1 ? 'question waits' : 'questions wait'} for your answer.`}
        </p>
      ) : null}
      <QueryState
        query={questions}
        errorTitle="We could not load questions"
        loading={<ListSkeleton label="Loading questions" />}
      >
        {(data) =>
          data.items.length === 0 ? (
            <Alert title="No questions yet">
              <p>
                {asked
                  ? 'Ask a seller from any listing with "Ask the seller".'
                  : 'Buyers ask from your listing’s page; we email you when they do.'}
              </p>
            </Alert>
          ) : (
            <ul className="space-y-4">
              {data.items.map((q) => (
                <li key={q._id}>
                  {asked ? <AskedQuestion question={q} /> : <SellersQuestion question={q} />}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </>
  )
}

function QuestionHeading({ question, who }: { question: Question; who: string }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <Link
        to={`${paths.product(question.productId)}#questions`}
        className="font-semibold text-slate-900 hover:text-accent hover:underline"
      >
        {question.productName}
      </Link>
      <span className="text-slate-600 text-xs">
        {who} · <time dateTime={question.askedAt}>{formatDate(question.askedAt)}</time>
      </span>
    </div>
  )
}

function AskedQuestion({ question }: { question: Question }) {
  return (
    <article className="space-y-2 rounded-xl border border-slate-200 bg-white p-4 text-sm">
      <QuestionHeading question={question} who="You asked" />
      <p className="whitespace-pre-line text-slate-900">{question.body}</p>
      {question.answer ? (
        <div className="rounded-lg bg-slate-50 p-3">
          <p className="font-medium text-slate-900">
            The seller answered
            {question.public ? ' (shown on the listing with your first name)' : ' (to you only)'}:
          </p>
          <p className="mt-1 whitespace-pre-line text-slate-700">{question.answer}</p>
        </div>
      ) : (
        <p className="text-slate-600">Waiting for the seller’s answer. We email you when it comes.</p>
      )}
    </article>
  )
}

function SellersQuestion({ question }: { question: Question }) {
  const [isEditing, setIsEditing] = useState(question.answer === null)
  const block = useBlockAsker()
  const asker = question.askerFirstName ?? 'A deleted account'
  async function toggleBlock() {
    try {
      await block.mutateAsync({ id: question._id, block: !question.blocked })
      toast.success(
        question.blocked
          ? `${asker} can ask you questions again`
          : `${asker} can no longer ask you questions`,
      )
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err))
    }
  }
  return (
    <article
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 text-sm"
      data-testid="seller-question"
    >
      <QuestionHeading question={question} who={`${asker} asked`} />
      <div className="flex flex-wrap gap-2">
        {question.answer === null && !question.blocked ? <Badge tone="warning">Unanswered</Badge> : null}
        {question.answer !== null ? (
          <Badge tone="outline">{question.public ? 'Shown on the listing' : 'Answered privately'}</Badge>
        ) : null}
        {question.blocked ? <Badge tone="outline">Asker blocked</Badge> : null}
      </div>
      <p className="whitespace-pre-line text-slate-900">{question.body}</p>
      {isEditing && !question.blocked ? (
        <AnswerForm question={question} onDone={() => setIsEditing(false)} />
      ) : question.answer !== null ? (
        <div className="rounded-lg bg-slate-50 p-3">
          <p className="font-medium text-slate-900">Your answer</p>
          <p className="mt-1 whitespace-pre-line text-slate-700">{question.answer}</p>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {!isEditing && question.answer !== null && !question.blocked ? (
          <Button size="sm" variant="secondary" onClick={() => setIsEditing(true)}>
            Change the answer
          </Button>
        ) : null}
        <Button size="sm" variant="secondary" onClick={toggleBlock} disabled={block.isPending}>
          {question.blocked ? `Unblock ${asker}` : `Block ${asker}`}
        </Button>
      </div>
    </article>
  )
}

function AnswerForm({ question, onDone }: { question: Question; onDone: () => void }) {
  const answerQuestion = useAnswerQuestion()
  const [answer, setAnswer] = useState(question.answer ?? '')
  const [isPublic, setIsPublic] = useState(question.answer === null ? true : question.public)
  const [error, setError] = useState<string | undefined>()
  const id = useId()
  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!answer.trim()) {
      setError('Write your answer')
      return
    }
    setError(undefined)
    try {
      await answerQuestion.mutateAsync({ id: question._id, answer: answer.trim(), public: isPublic })
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      setError(isApiError(err) && err.fields?.answer ? err.fields.answer : message)
      toast.error(message)
      return
    }
    toast.success(isPublic ? 'Answer sent and shown on the listing' : 'Answer sent to the asker')
    onDone()
  }
  return (
    <form noValidate onSubmit={submit} className="space-y-3">
      <div>
        <label htmlFor={`${id}-answer`} className="mb-1 block font-medium text-slate-800 text-sm">
          Your answer
        </label>
        <textarea
          id={`${id}-answer`}
          rows={3}
          maxLength={ANSWER_MAX}
          value={answer}
          onChange={(e) => setAnswer(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="block w-full rounded-lg border px-3 py-2 text-base shadow-sm sm:text-sm"
        />
        {error ? (
          <p id={`${id}-error`} className="mt-1 text-red-700 text-sm">
            {error}
          </p>
        ) : null}
      </div>
      <label className="flex min-h-11 items-start gap-2 text-slate-800">
        <input
          type="checkbox"
          checked={isPublic}
          onChange={(e) => setIsPublic(e.target.checked)}
          className="mt-0.5 size-5 shrink-0"
        />
        <span>
          Show the question and answer on the listing (the asker is named by first name only). Untick to
          answer the asker alone.
        </span>
      </label>
      <Button type="submit" size="sm" disabled={answerQuestion.isPending}>
        {answerQuestion.isPending ? 'Sending…' : 'Send answer'}
      </Button>
    </form>
  )
}
