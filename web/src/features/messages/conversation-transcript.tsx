import { useState } from 'react'
import { QueryState } from '../../components/query-state'
import { Badge } from '../../components/ui/badge'
import { Spinner } from '../../components/ui/spinner'
import { formatDate, formatTime } from '../../lib/format'
import { useTranscript } from './messages-api'

/**
 * A booking's conversation, read-only, behind a disclosure: an admin settling a dispute or a reported message
 * reads what the buyer and the seller wrote to each other. Loaded when opened.
 */
export function ConversationTranscript({ bookingId, label }: { bookingId: string; label: string }) {
  const [isOpen, setIsOpen] = useState(false)
  const thread = useTranscript(bookingId, isOpen)
  return (
    <details
      className="rounded-lg border border-slate-200 bg-slate-50"
      onToggle={(e) => setIsOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary className="min-h-11 cursor-pointer px-3 py-2.5 font-medium text-slate-900 text-sm">
        {label}
      </summary>
      <div className="border-slate-200 border-t px-3 py-3">
        {isOpen ? (
          <QueryState
            query={thread}
            errorTitle="Could not load the conversation"
            loading={<Spinner label="Loading the conversation" />}
            empty={<p className="text-slate-600 text-sm">No messages in this conversation.</p>}
          >
            {(data) => (
              <ol className="space-y-3" aria-label={label}>
                {data.map((m) => (
                  <li key={m._id} data-testid="transcript-message" className="text-sm">
                    <p className="flex flex-wrap items-center gap-2 text-slate-600">
                      <span className="font-semibold text-slate-900">{m.senderName}</span>
                      <time dateTime={m.createdAt}>
                        {formatDate(m.createdAt)} {formatTime(m.createdAt)}
                      </time>
                      {m.offPlatform ? <Badge tone="outline">Asks to pay outside</Badge> : null}
                      {m.reported ? <Badge tone="outline">Reported</Badge> : null}
                    </p>
                    <p className="mt-0.5 whitespace-pre-line text-slate-800">{m.body}</p>
                  </li>
                ))}
              </ol>
            )}
          </QueryState>
        ) : null}
      </div>
    </details>
  )
}
