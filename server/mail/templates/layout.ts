// One look and one voice for every email: a plain-text part and an HTML part made from the same pieces,
// so the two always say the same thing. Templates call `compose`; values are escaped here.
import { EMAIL_TOPICS, type EmailTopic } from '#contract/email-preferences'

export type EmailContent = { subject: string; text: string; html: string }

/** What every template gets besides its own data. */
export type RenderContext = {
  /** The recipient's name ("there" when unknown). */
  name: string
  /** PUBLIC_URL without a trailing slash; links in emails start with it. */
  siteUrl: string
}

export type EmailTemplate<Data> = {
  /** null: essential (account safety), always sent; otherwise the topic a user can turn off. */
  topic: EmailTopic | null
  /**
   * Sent to a bare address that must not stay behind (an erased account's): once sent, the queued job forgets it.
   */
  forgetsAddress?: boolean
  render(data: Data, ctx: RenderContext): EmailContent
}

export function defineEmail<Data extends object>(template: EmailTemplate<Data>): EmailTemplate<Data> {
  return template
}

export type EmailParts = {
  subject: string
  /** A short line some mail apps show beside the subject. */
  preview?: string
  heading: string
  paragraphs: string[]
  /** One clear thing to do, as a button (and the bare link in the text part). */
  action?: { label: string; url: string }
  /** A quieter last word, e.g. "If you did not ask for this, ignore this email." */
  footnote?: string
  topic: EmailTopic | null
  /** Lists of links after the paragraphs (an alert's laptops), each under an optional heading. */
  sections?: { heading?: string; items: { title: string; detail: string; url: string }[] }[]
  /** An alert's own off switch: the page that turns off just this alert, without signing in. */
  unsubscribe?: { label: string; url: string }
}

const ACCENT = '#0f766e'

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

function sectionHtml(section: NonNullable<EmailParts['sections']>[number]): string {
  const heading = section.heading
    ? `<h2 style="margin:8px 0 8px;font-size:17px;line-height:24px;color:#0f172a">${escapeHtml(section.heading)}</h2>`
    : ''
  const rows = section.items
    .map(
      (item) => `<tr><td style="padding:10px 0;border-top:1px solid #e2e8f0">
<a href="${escapeHtml(item.url)}" style="font-size:16px;font-weight:600;color:${ACCENT};text-decoration:none">${escapeHtml(item.title)}</a>
<div style="font-size:14px;line-height:20px;color:#334155">${escapeHtml(item.detail)}</div>
</td></tr>`,
    )
    .join('\n')
  return `${heading}<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="margin:0 0 16px">${rows}</table>`
}

export function compose(parts: EmailParts, ctx: RenderContext): EmailContent {
  const settingsUrl = `${ctx.siteUrl}/dashboard/settings`
  const why = parts.topic
    ? `You get this email because “${EMAIL_TOPICS[parts.topic].label}” is on in your email settings: ${settingsUrl}`
    : 'We send this email to keep your account safe; it cannot be turned off.'

  const text = [
    `Hi ${ctx.name},`,
    '',
    ...parts.paragraphs.flatMap((p) => [p, '']),
    ...(parts.sections ?? []).flatMap((section) => [
      ...(section.heading ? [section.heading, ''] : []),
      ...section.items.flatMap((item) => [`- ${item.title}: ${item.detail}`, `  ${item.url}`]),
      '',
    ]),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`, ''] : []),
    ...(parts.footnote ? [parts.footnote, ''] : []),
    '— Laptop Market',
    ctx.siteUrl,
    '',
    why,
    ...(parts.unsubscribe ? [`${parts.unsubscribe.label}: ${parts.unsubscribe.url}`] : []),
    '',
  ].join('\n')

  const p = (content: string, style = '') =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#334155;${style}">${content}</p>`
  const button = parts.action
    ? `<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:8px 0 24px"><tr>
<td style="border-radius:8px;background:${ACCENT}"><a href="${escapeHtml(parts.action.url)}" style="display:inline-block;padding:12px 24px;font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:8px">${escapeHtml(parts.action.label)}</a></td>
</tr></table>
${p(`Or paste this link into your browser:<br><a href="${escapeHtml(parts.action.url)}" style="color:${ACCENT};word-break:break-all">${escapeHtml(parts.action.url)}</a>`, 'font-size:14px;line-height:20px;color:#64748b')}`
    : ''
  const whyHtml = parts.topic
    ? `You get this email because “${escapeHtml(EMAIL_TOPICS[parts.topic].label)}” is on in your <a href="${escapeHtml(settingsUrl)}" style="color:#64748b">email settings</a>.`
    : 'We send this email to keep your account safe; it cannot be turned off.'

  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(parts.subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f8fafc;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
${parts.preview ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(parts.preview)}</div>` : ''}
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:#f8fafc">
<tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:560px">
<tr><td style="padding:0 0 16px;font-size:20px;font-weight:700;color:${ACCENT}">
<a href="${escapeHtml(ctx.siteUrl)}" style="color:${ACCENT};text-decoration:none">Laptop Market</a>
</td></tr>
<tr><td style="background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:32px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:30px;color:#0f172a">${escapeHtml(parts.heading)}</h1>
${p(`Hi ${escapeHtml(ctx.name)},`)}
${parts.paragraphs.map((para) => p(escapeHtml(para))).join('\n')}
${(parts.sections ?? []).map(sectionHtml).join('\n')}
${button}
${parts.footnote ? p(escapeHtml(parts.footnote), 'font-size:14px;line-height:20px;color:#64748b') : ''}
${p('— Laptop Market', 'margin:0')}
</td></tr>
<tr><td style="padding:16px 8px;font-size:12px;line-height:18px;color:#64748b">${whyHtml}${parts.unsubscribe ? ` <a href="${escapeHtml(parts.unsubscribe.url)}" style="color:#64748b">${escapeHtml(parts.unsubscribe.label)}</a>.` : ''}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`
  return { subject: parts.subject, text, html }
}

/**
 * A product's name inside a sentence or a subject, in typographic quotes: a name that holds an inch mark
 * (`Surface Laptop 4 15"`) would otherwise close the straight quotes around it.
 */
export function named(name: string): string {
  return `“${name}”`
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
})
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' })

/**
 * A date as people read it in an email, "Monday, November 30, 2026", and with `withTime` the time too, "Monday,
 * November 30, 2026 at 7:14 AM UTC". Emails are read anywhere, so times are in UTC and say so. Every date in an
 * email goes through here.
 */
export function emailDate(value: Date | string | number, withTime = false): string {
  const at = new Date(value)
  return withTime ? `${dayFormat.format(at)} at ${timeFormat.format(at)} UTC` : dayFormat.format(at)
}
