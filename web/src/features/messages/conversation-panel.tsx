import { Flag, Send, TriangleAlert } from 'lucide-react'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { MESSAGE_MAX, type Message, NewMessage, OFF_PLATFORM_WARNING } from '#contract/messages'
import { QueryState } from '../../components/query-state'
import { Button } from '../../components/ui/button'
import { cn } from '../../components/ui/cn'
import { FormField } from '../../components/ui/form-field'
import { Skeleton } from '../../components/ui/skeleton'
import { errorMessage } from '../../lib/api-client'
import { formatDate, formatTime } from '../../lib/format'
import { toast } from '../../lib/toast'
import { useReportMessage, useSendMessage, useThread } from './messages-api'

/**
 * A booking's conversation: messages as plain text (React escapes them; links are not made clickable), the
 * warning under a message that asks to pay outside the marketplace, and the form to write. New messages
 * arrive by polling (see useThread). `canWrite` is false for an admin reading a reported or disputed one.
 * `writesAfterReply`: why this side may only answer (the buyer of an unpaid booking), shown instead of the
 * form until the other side has written.
 */
export function ConversationPanel({
  bookingId,
  canWrite,
  writesAfterReply,
}: {
  bookingId: string
  canWrite: boolean
  writesAfterReply?: string
}) {
  const thread = useThread(bookingId)
  const report = useReportMessage(bookingId)
  const listRef = useRef<HTMLOListElement>(null)
  const count = thread.data?.length ?? 0
  const waiting = Boolean(writesAfterReply) && !(thread.data ?? []).some((m) => !m.mine)

  // Keep the newest message in view as messages arrive.
  useEffect(() => {
    if (count > 0) listRef.current?.lastElementChild?.scrollIntoView?.({ block: 'nearest' })
  }, [count])

  function reportMessage(message: Message) {
    report.mutate(message._id, {
      onSuccess: () => toast.success('Thank you. An admin will look at this conversation.'),
      onError: (err) => toast.error(errorMessage(err)),
    })
  }

  return (
    <section aria-label="Conversation" className="rounded-xl border border-slate-200 bg-white">
      <QueryState
        query={thread}
        errorTitle="We could not load this conversation"
        errorClassName="m-4"
        loading={
          <div className="space-y-3 p-4" aria-busy="true">
            <span className="sr-only" role="status">
              Loading the conversation
            </span>
            <Skeleton className="h-14 w-2/3" />
            <Skeleton className="ml-auto h-14 w-2/3" />
          </div>
        }
        empty={
          <p className="p-6 text-center text-slate-600">
            No messages yet.{' '}
            {canWrite && !waiting ? 'Ask about the laptop, or agree where and when to meet.' : null}
          </p>
        }
      >
        {(data) => (
          <ol
            ref={listRef}
            aria-label="Messages"
            aria-live="polite"
            className="max-h-[60vh] space-y-4 overflow-y-auto p-4"
          >
            {data.map((message) => (
              <MessageItem
                key={message._id}
                message={message}
                canReport={canWrite && !message.mine && !message.reported}
                isReporting={report.isPending && report.variables === message._id}
                onReport={() => reportMessage(message)}
              />
            ))}
          </ol>
        )}
      </QueryState>
      {canWrite && waiting && !thread.isPending ? (
        <p className="border-slate-200 border-t p-4 text-slate-600 text-sm">{writesAfterReply}</p>
      ) : canWrite && !waiting ? (
        <MessageForm bookingId={bookingId} />
      ) : null}
    </section>
  )
}

function MessageItem({
  message,
  canReport,
  isReporting,
  onReport,
}: {
  message: Message
  canReport: boolean
  isReporting: boolean
  onReport: () => void
}) {
  return (
    <li data-testid="message" className={cn('flex flex-col', message.mine ? 'items-end' : 'items-start')}>
      <div
        className={cn(
          'max-w-[85%] rounded-2xl px-4 py-2',
          message.mine ? 'bg-accent-soft text-slate-900' : 'bg-slate-100 text-slate-900',
        )}
      >
        <p className="font-semibold text-slate-700 text-xs">
          {message.mine ? 'You' : message.senderName}
          <span className="font-normal text-slate-600">
            {' · '}
            <time dateTime={message.createdAt}>
              {formatDate(message.createdAt)}, {formatTime(message.createdAt)}
            </time>
          </span>
        </p>
        <p className="whitespace-pre-wrap break-words">{message.body}</p>
      </div>
      {message.offPlatform && !message.mine ? (
        <p
          role="note"
          className="mt-1 flex max-w-[85%] items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 text-sm"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{OFF_PLATFORM_WARNING}</span>
        </p>
      ) : null}
      {message.reported ? (
        <span className="mt-1 text-slate-500 text-xs">Reported to the admins</span>
      ) : canReport ? (
        <button
          type="button"
          onClick={onReport}
          disabled={isReporting}
          className="mt-1 inline-flex min-h-8 items-center gap-1 text-slate-500 text-xs hover:text-red-700 hover:underline disabled:opacity-60"
        >
          <Flag aria-hidden="true" className="size-3" />
          Report<span className="sr-only"> this message from {message.senderName}</span>
        </button>
      ) : null}
    </li>
  )
}

function MessageForm({ bookingId }: { bookingId: string }) {
  const send = useSendMessage(bookingId)
  const [body, setBody] = useState('')
  const [error, setError] = useState<string | undefined>()

  function submit(event: FormEvent) {
    event.preventDefault()
    const parsed = NewMessage.safeParse({ body })
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message)
      return
    }
    setError(undefined)
    send.mutate(parsed.data.body, {
      onSuccess: () => setBody(''),
      // The server's own words: the limit per minute, or why the message was refused.
      onError: (err) => setError(errorMessage(err)),
    })
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-2 border-slate-200 border-t p-4">
      <FormField
        label="Your message"
        hint="Plain text. Never pay or share card details outside Laptop Market."
        error={error}
      >
        <textarea
          name="body"
          rows={3}
          maxLength={MESSAGE_MAX}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          className="py-2"
        />
      </FormField>
      <div className="flex items-center justify-between gap-3">
        <span className="text-slate-500 text-xs">
          {body.length} / {MESSAGE_MAX}
        </span>
        <Button type="submit" disabled={send.isPending}>
          <Send aria-hidden="true" className="size-4" />
          {send.isPending ? 'Sending…' : 'Send'}
        </Button>
      </div>
    </form>
  )
}
