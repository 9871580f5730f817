import { MessageCircleQuestion, X } from 'lucide-react'
import { type FormEvent, useId, useRef, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { paths } from '#contract/pages'
import type { Product } from '#contract/products'
import { QUESTION_MAX } from '#contract/question-limits'
import type { PublicQuestion } from '#contract/questions'
import { Button } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { useModalDialog } from '../../components/ui/use-modal-dialog'
import { isApiError } from '../../lib/api-client'
import { formatDate } from '../../lib/format'
import { toast } from '../../lib/toast'
import { loginPathFrom, useSession } from '../auth'
import { useAskQuestion, usePublicQuestions } from './questions-api'

/**
 * A listing's "Questions and answers": the answers its seller made public (each asker by first name only), and "Ask
 * the seller" for anyone but the seller while the laptop is on sale. Rendered with the page on the server.
 */
export function ProductQuestions({ product }: { product: Product }) {
  const qa = usePublicQuestions(product._id)
  const items = qa.data ?? []
  return (
    <section id="questions" aria-labelledby="questions-heading" className="mt-10 scroll-mt-24">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="questions-heading" className="font-semibold text-slate-900 text-xl">
          Questions and answers
        </h2>
        <AskSellerButton product={product} />
      </div>
      {items.length > 0 ? (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {items.map((q) => (
            <PublicAnswer key={q._id} question={q} />
          ))}
        </ul>
      ) : (
        <p className="text-slate-600 text-sm" data-testid="no-public-questions">
          {qa.isError
            ? 'Questions and answers could not be loaded just now.'
            : 'No questions answered here yet. Ask the seller anything the listing does not say.'}
        </p>
      )}
    </section>
  )
}

function PublicAnswer({ question }: { question: PublicQuestion }) {
  return (
    <li className="space-y-2 px-4 py-4 text-sm" data-testid="public-question">
      <p className="text-slate-900">
        <span className="mr-1 font-semibold">Q:</span>
        <span className="whitespace-pre-line">{question.body}</span>
      </p>
      <p className="text-slate-700">
        <span className="mr-1 font-semibold text-slate-900">A:</span>
        <span className="whitespace-pre-line">{question.answer}</span>
      </p>
      <p className="text-slate-600 text-xs">
        Asked by {question.askerFirstName ?? 'a buyer'} ·{' '}
        <time dateTime={question.answeredAt}>answered {formatDate(question.answeredAt)}</time>
      </p>
    </li>
  )
}

/**
 * "Ask the seller": a signed-in person writes a question in a modal; a signed-out visitor signs in first and comes
 * back. Not shown on the caller's own listing, nor once the laptop is sold or the listing expired.
 */
export function AskSellerButton({ product }: { product: Product }) {
  const { user, isLoading } = useSession()
  const [isOpen, setIsOpen] = useState(false)
  const navigate = useNavigate()
  const location = useLocation()
  if (product.sellStatus || product.expired || (product.review_state ?? 'approved') !== 'approved')
    return null
  if (user && user.id === product.seller_id) return null
  const open = () => {
    if (user) setIsOpen(true)
    else navigate(loginPathFrom(`${location.pathname}${location.search}`))
  }
  return (
    <>
      <Button variant="secondary" onClick={open} disabled={isLoading} aria-haspopup="dialog">
        <MessageCircleQuestion aria-hidden="true" className="size-4" />
        Ask the seller
      </Button>
      {isOpen && user ? <AskModal product={product} onClose={() => setIsOpen(false)} /> : null}
    </>
  )
}

function AskModal({ product, onClose }: { product: Product; onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null)
  const bodyRef = useRef<HTMLTextAreaElement>(null)
  const titleId = useId()
  const ask = useAskQuestion()
  const [body, setBody] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [sent, setSent] = useState(false)
  const close = useModalDialog(dialogRef, { focus: () => bodyRef.current?.focus() })

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!body.trim()) {
      setError('Write your question')
      bodyRef.current?.focus()
      return
    }
    setError(undefined)
    try {
      await ask.mutateAsync({ productId: product._id, body: body.trim() })
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      if (isApiError(err) && err.fields?.body) setError(err.fields.body)
      else setError(message)
      toast.error(message)
      bodyRef.current?.focus()
      return
    }
    toast.success('Question sent to the seller')
    setSent(true)
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-2xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/60"
    >
      <div className="flex items-start justify-between gap-4 border-slate-200 border-b px-5 py-4">
        <h2 id={titleId} className="font-semibold text-lg leading-snug">
          Ask the seller about {product.name}
        </h2>
        <button
          type="button"
          onClick={close}
          aria-label="Close"
          className="-m-2 rounded-lg p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
      {sent ? (
        <div className="space-y-4 px-5 py-5 text-sm" role="status">
          <p className="font-semibold text-base">Your question is on its way.</p>
          <p className="text-slate-700">
            We email you when the seller answers. You can follow it under{' '}
            <Link to={paths.questions('asked')} className="font-medium text-accent underline">
              your questions
            </Link>
            .
          </p>
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="space-y-4 px-5 py-5">
          <FormField
            label="Your question"
            hint="The seller may show the question and answer on the listing, with your first name only. Keep payment and contact details out: pay only through Laptop Market."
            error={error}
          >
            <textarea
              ref={bodyRef}
              rows={4}
              maxLength={QUESTION_MAX}
              value={body}
              onChange={(e) => setBody(e.target.value)}
              className="block w-full rounded-lg border px-3 py-2 text-base shadow-sm sm:text-sm"
            />
          </FormField>
          <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={ask.isPending}>
              {ask.isPending ? 'Sending…' : 'Send question'}
            </Button>
          </div>
        </form>
      )}
    </dialog>
  )
}
