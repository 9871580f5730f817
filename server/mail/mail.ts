// Email, with nothing lost: `queue(tx, …)` puts an email on the job queue in the caller's transaction (no
// email for a change that rolls back); the `email` worker renders it and sends it, retried with backoff
// while the mail server is down (server/jobs/queues.ts). A job runs on one instance at a time, and every
// attempt of one email carries the same Message-ID.

import { eq, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '#server/config'
import type { Db } from '#server/db/client'
import { emailPreferences, users } from '#server/db/schema'
import { JOBS_SCHEMA } from '#server/jobs/install'
import type { Job, Jobs } from '#server/jobs/jobs'
import type { EmailJob, Recipient } from './email-job'
import { TEMPLATES, type TemplateData, type TemplateName } from './templates'
import type { EmailTemplate } from './templates/layout'
import type { MailTransport } from './transport'

export type { EmailJob, Recipient }

/** What a sent job that forgets its address holds instead (an address that reaches nobody). */
export const FORGOTTEN_ADDRESS = 'sent@erased.invalid'

export type MailRequest<K extends TemplateName> = {
  to: Recipient
  template: K
  /** The template's data; stored as JSON until sent, so strings, numbers, booleans, arrays, objects. */
  data: TemplateData<K>
}

export type QueueMailOptions = {
  /** Not before then: a date, or seconds from now (e.g. "a message still unread after 5 minutes"). */
  startAfter?: Date | number
  /** At most one waiting email with this key (e.g. one per conversation); a second queue() returns null. */
  singletonKey?: string
}

export type Delivery =
  | { sent: true; to: string; file?: string }
  | { sent: false; reason: 'unknown template' | 'no such user' | 'account disabled' | 'turned off' }

export class Mail {
  readonly #db: Db
  readonly #jobs: Jobs
  readonly #transport: MailTransport
  readonly #from: string
  readonly #siteUrl: string
  readonly #host: string
  readonly #log: FastifyBaseLogger
  readonly #templates: Record<string, EmailTemplate<object>>

  constructor(opts: {
    db: Db
    jobs: Jobs
    transport: MailTransport
    config: Config
    log: FastifyBaseLogger
    /** Tests only: templates besides the product's. */
    extraTemplates?: Record<string, EmailTemplate<never>>
  }) {
    this.#templates = { ...(TEMPLATES as Record<string, EmailTemplate<object>>), ...opts.extraTemplates }
    this.#db = opts.db
    this.#jobs = opts.jobs
    this.#transport = opts.transport
    this.#from = opts.config.mail.from
    this.#siteUrl = opts.config.publicUrl.replace(/\/$/, '')
    this.#host = new URL(opts.config.publicUrl).hostname
    this.#log = opts.log
    this.#jobs.work('email', (job) => this.deliver(job))
    if (opts.config.env === 'production' && !this.#siteUrl.startsWith('https:')) {
      // RFC 8058: the one-click unsubscribe address of alert emails must be https for mail providers to use it.
      this.#log.warn(
        { publicUrl: this.#siteUrl },
        'PUBLIC_URL is not https: mail providers ignore the one-click unsubscribe of alert emails sent with it',
      )
    }
  }

  /**
   * Queues an email in the caller's transaction `tx` (or pass the app's `db` when there is none). Returns
   * the job id, or null when `singletonKey` found one already waiting.
   */
  async queue<K extends TemplateName>(
    tx: Db,
    request: MailRequest<K>,
    opts: QueueMailOptions = {},
  ): Promise<string | null> {
    if (!(request.template in this.#templates)) throw new Error(`Mail: no template "${request.template}"`)
    const job: EmailJob = { to: request.to, template: request.template, data: request.data as object }
    return this.#jobs.send('email', job, { tx, startAfter: opts.startAfter, singletonKey: opts.singletonKey })
  }

  /** Queues many emails at once in the caller's transaction (alerts: one per saved search with news). */
  async queueMany<K extends TemplateName>(tx: Db, requests: MailRequest<K>[]): Promise<void> {
    for (const r of requests) {
      if (!(r.template in this.#templates)) throw new Error(`Mail: no template "${r.template}"`)
    }
    await this.#jobs.sendMany(
      'email',
      requests.map((r) => ({ data: { to: r.to, template: r.template, data: r.data as object } })),
      { tx },
    )
  }

  /** The `email` worker: renders and sends one queued email. Throws (so the queue retries) when sending fails. */
  async deliver(job: Job<EmailJob>): Promise<Delivery> {
    const { to, template: name, data } = job.data
    const template = this.#templates[name]
    if (!template) {
      this.#log.error({ jobId: job.id, template: name }, 'Email with an unknown template dropped')
      return { sent: false, reason: 'unknown template' }
    }
    let address: string
    let displayName: string | undefined
    if ('userId' in to) {
      const [user] = await this.#db
        .select({ email: users.email, name: users.name, disabledAt: users.disabledAt })
        .from(users)
        .where(eq(users.id, to.userId))
        .limit(1)
      if (!user) return this.#skip(job, 'no such user')
      if (user.disabledAt) return this.#skip(job, 'account disabled')
      if (template.topic) {
        const [prefs] = await this.#db
          .select({ muted: emailPreferences.mutedTopics })
          .from(emailPreferences)
          .where(eq(emailPreferences.userId, to.userId))
          .limit(1)
        if (prefs?.muted.includes(template.topic)) return this.#skip(job, 'turned off')
      }
      address = user.email
      displayName = user.name
    } else {
      address = to.email
      displayName = to.name
    }
    const content = template.render(data, { name: displayName || 'there', siteUrl: this.#siteUrl })
    const result = await this.#transport.send({
      from: this.#from,
      to: displayName ? `"${displayName.replace(/["\\\r\n]/g, '')}" <${address}>` : address,
      subject: content.subject,
      text: content.text,
      html: content.html,
      messageId: `<${job.id}@${this.#host}>`,
      headers: {
        'X-Laptop-Market-Email': name,
        ...this.#unsubscribeHeaders(template, data),
      },
      label: `${name}-${job.id.slice(0, 8)}`,
    })
    if (template.forgetsAddress && 'email' in to) await this.#forgetAddress(job.id)
    if (result.file) {
      this.#log.info({ template: name, file: result.file }, `Email saved to ${result.file}`)
    } else {
      this.#log.info({ template: name, jobId: job.id, attempt: job.retryCount + 1 }, 'Email sent')
    }
    return { sent: true, to: address, file: result.file }
  }

  /**
   * An alert (its data carries `unsubscribeToken`) names a URL that turns it off on one POST, as RFC 8058
   * asks of bulk senders; other emails of a topic point at the email settings.
   */
  #unsubscribeHeaders(template: EmailTemplate<object>, data: object): Record<string, string> {
    const token = (data as { unsubscribeToken?: unknown }).unsubscribeToken
    if (typeof token === 'string') {
      return {
        'List-Unsubscribe': `<${this.#siteUrl}/api/unsubscribe/${encodeURIComponent(token)}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      }
    }
    return template.topic ? { 'List-Unsubscribe': `<${this.#siteUrl}/dashboard/settings>` } : {}
  }

  /** The sent job keeps no address: its recipient becomes a placeholder (the queue keeps finished jobs a while). */
  async #forgetAddress(jobId: string): Promise<void> {
    const job = sql`${sql.identifier(JOBS_SCHEMA)}.job`
    await this.#db.execute(
      sql`update ${job} set data = jsonb_set(data, '{to}', ${JSON.stringify({ email: FORGOTTEN_ADDRESS })}::jsonb) where id = ${jobId}`,
    )
  }

  #skip(job: Job<EmailJob>, reason: Extract<Delivery, { sent: false }>['reason']): Delivery {
    this.#log.info({ template: job.data.template, jobId: job.id, reason }, 'Email not sent')
    return { sent: false, reason }
  }

  close(): void {
    this.#transport.close()
  }
}
