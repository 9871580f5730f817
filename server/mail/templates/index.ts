// Every kind of email, by name. To add one: a file beside this one (`defineEmail` with its data type, its
// topic or null when essential, and `compose` for the text and HTML parts), and a line here.
import accountErased from './account-erased'
import alertDigest from './alert-digest'
import alertFavourites from './alert-favourites'
import alertSearchMatches from './alert-search-matches'
import bookingCancelled from './booking-cancelled'
import bookingWithdrawn from './booking-withdrawn'
import dealBooked from './deal-booked'
import dealCancelled from './deal-cancelled'
import dealCompleted from './deal-completed'
import dealDisputeOpened from './deal-dispute-opened'
import dealDisputeResolved from './deal-dispute-resolved'
import dealFrozen from './deal-frozen'
import dealHandedOver from './deal-handed-over'
import dealPaid from './deal-paid'
import dealReturn from './deal-return'
import type { EmailTemplate } from './layout'
import listingApproved from './listing-approved'
import listingExpiring from './listing-expiring'
import listingRejected from './listing-rejected'
import messageUnread from './message-unread'
import offerAccepted from './offer-accepted'
import offerCountered from './offer-countered'
import offerDeclined from './offer-declined'
import offerExpiring from './offer-expiring'
import offerReceived from './offer-received'
import parcelLost from './parcel-lost'
import parcelStatus from './parcel-status'
import passwordReset from './password-reset'
import payoutFailed from './payout-failed'
import payoutSent from './payout-sent'
import payoutSetupNeeded from './payout-setup-needed'
import questionAnswered from './question-answered'
import questionReceived from './question-received'
import reportResolved from './report-resolved'
import securityChange from './security-change'
import verifyEmail from './verify-email'

export const TEMPLATES = {
  'password-reset': passwordReset,
  'verify-email': verifyEmail,
  'account-erased': accountErased,
  'listing-expiring': listingExpiring,
  'listing-rejected': listingRejected,
  'listing-approved': listingApproved,
  'report-resolved': reportResolved,
  'deal-booked': dealBooked,
  'deal-paid': dealPaid,
  'deal-handed-over': dealHandedOver,
  'deal-completed': dealCompleted,
  'deal-dispute-opened': dealDisputeOpened,
  'deal-dispute-resolved': dealDisputeResolved,
  'deal-cancelled': dealCancelled,
  'deal-frozen': dealFrozen,
  'parcel-status': parcelStatus,
  'parcel-lost': parcelLost,
  'deal-return': dealReturn,
  'booking-cancelled': bookingCancelled,
  'booking-withdrawn': bookingWithdrawn,
  'message-unread': messageUnread,
  'offer-received': offerReceived,
  'offer-countered': offerCountered,
  'offer-accepted': offerAccepted,
  'offer-declined': offerDeclined,
  'offer-expiring': offerExpiring,
  'question-received': questionReceived,
  'question-answered': questionAnswered,
  'alert-search-matches': alertSearchMatches,
  'alert-favourites': alertFavourites,
  'alert-digest': alertDigest,
  'payout-sent': payoutSent,
  'payout-failed': payoutFailed,
  'payout-setup-needed': payoutSetupNeeded,
  'security-change': securityChange,
} satisfies Record<string, EmailTemplate<never>>

export type TemplateName = keyof typeof TEMPLATES
export type TemplateData<K extends TemplateName> =
  (typeof TEMPLATES)[K] extends EmailTemplate<infer D> ? D : never
