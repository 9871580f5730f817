// Every queue the app sends jobs to, with its retry rules. A queue is declared here (one line) so that
// opening a database creates it before anything is sent to it (pg-boss keeps each queue in a table of its
// own), and so that `send` and `work` check the job's data against the queue's type.
//
// retryLimit: attempts after the first; retryDelay: seconds before a retry; retryBackoff adds 2^n to 2^(n+1)
// seconds to retry n's delay, n from 0 (pg-boss 11: 31–32 s, 32–34 s, 34–38 s … 9–17 min by the tenth); expireInSeconds: how long one attempt may run before it counts as
// failed and is retried (keep it above the handler's own timeouts).
import type { EmailJob } from '#server/mail/email-job'

export type QueueOptions = {
  retryLimit: number
  retryDelay: number
  retryBackoff: boolean
  expireInSeconds: number
}

/** A queue's options, carrying the type of its jobs' data. */
export type QueueSpec<Data> = QueueOptions & { readonly __data?: Data }

function queue<Data extends object>(options: QueueOptions): QueueSpec<Data> {
  return options
}

export const QUEUES = {
  // Nine to eighteen hours of retries (30 s plus a doubling 1 s, 2 s, 4 s … with jitter) before an email is
  // given up: the last waits four and a half to nine hours.
  email: queue<EmailJob>({ retryLimit: 15, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 }),
  // Listing expiry and its reminders (hourly), and the price guide's full rebuild (daily): sweeps that can
  // run twice without harm; a failed one is tried again soon and the next scheduled one catches up anyway.
  'listings.expire': queue<Record<string, never>>({
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
  }),
  // Writing listings' images column for those from before it (migration 0057), in batches from each start: a
  // repeat writes the same value; an attempt queues the next before its time is up.
  'listings.images-fill': queue<Record<string, never>>({
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
  }),
  'price-guide.refresh': queue<Record<string, never>>({
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 600,
  }),
  // Completing handed-over sales AUTO_COMPLETE_DAYS after the handover (every quarter hour): a conditional
  // update, so a repeat or a second instance completes nothing twice.
  'deals.auto-complete': queue<Record<string, never>>({
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
  }),
  // Cancelling and refunding paid shipped sales with no label SHIP_WITHIN_DAYS after payment (every quarter hour):
  // each sale is locked and moved once, so a repeat or a second instance refunds nothing twice.
  'deals.ship-late': queue<Record<string, never>>({
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
  }),
  // Offers (server/modules/offers): an offer or counter expires OFFER_HOURS after it was made unless answered
  // (`round` names the proposal the job was queued for, so a later counter's job is the one that counts), its
  // waiting side is reminded a few hours before, and an accepted offer lapses when its hold ends unpaid. Each is
  // a conditional update: a repeat, or a job that finds the offer moved on, changes nothing.
  'offers.expire': queue<{ offerId: string; round: number }>({
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  'offers.remind': queue<{ offerId: string; round: number }>({
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  'offers.lapse': queue<{ offerId: string }>({
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  // Removing photos uploaded more than a day ago and never put on a listing (hourly): a repeat finds nothing.
  'uploads.cleanup': queue<Record<string, never>>({
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 600,
  }),
  // A seller's new bookings, told in one email: the first booking queues it BOOKING_EMAIL_GROUP_SECONDS out
  // (one waiting job per seller), later ones join it; it emails every booking not yet told, marked in its
  // own transaction, so a repeat finds nothing.
  'bookings.seller-email': queue<{ sellerId: string }>({
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  // Returns (server/modules/returns): an accepted return's label, bought from the carrier (idempotent per return,
  // so a retry after a crash buys nothing twice); and the daily refund of returns delivered back whose seller did
  // not answer within RETURN_CONFIRM_DAYS (each refunded once, under its lock).
  'returns.label': queue<{ returnId: string }>({
    retryLimit: 10,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
  }),
  'returns.confirm-by': queue<Record<string, never>>({
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
  }),
  // A message still unread a few minutes after it was sent: emails its reader once per conversation.
  'messages.unread': queue<{ bookingId: string; userId: string }>({
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  // A seller's new questions (server/modules/questions), told in one email like new bookings: the first question
  // queues it QUESTION_EMAIL_GROUP_SECONDS out (one waiting job per seller); a repeat finds nothing left to tell.
  'questions.seller-email': queue<{ sellerId: string }>({
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  // Saved-search and favourite alerts (server/modules/alerts): the matcher over new listings and price changes
  // (sent after each change, and every minute as a sweep), an hour-delayed email for a search that was just
  // emailed, a minute-delayed email grouping one user's favourite news, and the daily digest.
  'alerts.match': queue<Record<string, never>>({
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 600,
  }),
  'alerts.search-email': queue<{ searchId: string }>({
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  'alerts.favourites-email': queue<{ userId: string }>({
    retryLimit: 5,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  'alerts.digest': queue<Record<string, never>>({
    retryLimit: 3,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 900,
  }),
  // Payouts (server/modules/payouts): a run every PAYOUT_INTERVAL_SECONDS (each run, and a minute's tick,
  // queue the next one), and the landing of a test-mode payout. Each is safe to run twice.
  'payouts.run': queue<Record<string, never>>({
    retryLimit: 5,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 1800,
  }),
  'payouts.tick': queue<Record<string, never>>({
    retryLimit: 1,
    retryDelay: 30,
    retryBackoff: false,
    expireInSeconds: 60,
  }),
  'payouts.settle': queue<{ payoutId: string; fails: boolean }>({
    retryLimit: 10,
    retryDelay: 30,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  // The daily reconciliation of the ledger with the processor's records (server/modules/payouts/reconcile.ts).
  'payouts.reconcile': queue<Record<string, never>>({
    retryLimit: 3,
    retryDelay: 300,
    retryBackoff: true,
    expireInSeconds: 3600,
  }),
  // The built-in test carrier (server/modules/shipping/test-carrier.ts): a tracker's next step
  // TEST_CARRIER_SECONDS after the last (a conditional update: a repeat, or a second instance, moves nothing),
  // and the signed `tracker.updated` webhook each step sends, retried like EasyPost retries a refused one.
  'test-carrier.step': queue<{ trackerId: string; from: string }>({
    retryLimit: 5,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
  'test-carrier.webhook': queue<{ eventId: string; body: string }>({
    retryLimit: 8,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 120,
  }),
} satisfies Record<string, QueueSpec<object>>

export type QueueName = keyof typeof QUEUES
export type JobData<N extends QueueName> = (typeof QUEUES)[N] extends QueueSpec<infer D> ? D : never
