import { QueryState } from '../../components/query-state'
import { Alert } from '../../components/ui/alert'
import { Badge } from '../../components/ui/badge'
import { ListSkeleton } from '../../components/ui/list-skeleton'
import { formatDate } from '../../lib/format'
import { ConversationTranscript } from './conversation-transcript'
import { useReportedMessages } from './messages-api'

/** The Reported Items page's section for messages: each reported message, and its whole conversation to read. */
export function ReportedMessages() {
  const reported = useReportedMessages()
  return (
    <section aria-labelledby="reported-messages" className="mt-10">
      <h2 id="reported-messages" className="mb-4 font-semibold text-slate-900 text-xl">
        Reported messages
      </h2>
      <QueryState
        query={reported}
        errorTitle="Could not load the reported messages"
        loading={<ListSkeleton label="Loading reported messages" />}
        empty={<Alert title="No reported messages" />}
      >
        {(data) => (
          <ul className="space-y-4">
            {data.map((m) => (
              <li
                key={m._id}
                className="space-y-3 rounded-xl border border-slate-200 bg-white p-4"
                data-testid="reported-message"
              >
                <p className="flex flex-wrap items-center gap-2 text-slate-600 text-sm">
                  <span className="font-semibold text-slate-900">{m.senderName}</span>
                  <span>about {m.productName}</span>
                  <span>
                    · reported <time dateTime={m.reportedAt}>{formatDate(m.reportedAt)}</time>
                  </span>
                  {m.offPlatform ? <Badge tone="outline">Asks to pay outside</Badge> : null}
                </p>
                <blockquote className="whitespace-pre-line border-slate-300 border-l-4 pl-3 text-slate-800">
                  {m.body}
                </blockquote>
                <ConversationTranscript bookingId={m.bookingId} label="Read the whole conversation" />
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  )
}
