// Where email goes: an SMTP server (SMTP_URL), or, in the embedded default, an `.eml` file per email under
// DATA_DIR/mail, which any mail app opens (so a newcomer can follow a password-reset link locally).
import { randomUUID } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import nodemailer from 'nodemailer'

export type OutgoingEmail = {
  from: string
  to: string
  subject: string
  text: string
  html: string
  /** The same on every attempt of one email, so a receiver can tell a repeat from a new email. */
  messageId: string
  headers: Record<string, string>
  /** Names the saved file (fallback transport); letters, digits and dashes. */
  label: string
}

export type MailTransport = {
  kind: 'smtp' | 'files'
  /** Resolves once the server accepted the email (or the file is written); rejects otherwise. */
  send(email: OutgoingEmail): Promise<{ file?: string }>
  close(): void
}

export function createMailTransport(mail: { smtpUrl: string | undefined; dir: string }): MailTransport {
  if (mail.smtpUrl) return smtpTransport(mail.smtpUrl)
  return fileTransport(mail.dir)
}

function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    // A server that does not answer must fail the attempt well before the job expires (120 s), so the
    // queue retries it instead of counting it twice.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 45_000,
  })
  return {
    kind: 'smtp',
    async send(email) {
      await transporter.sendMail(message(email))
      return {}
    },
    close: () => transporter.close(),
  }
}

function fileTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    kind: 'files',
    async send(email) {
      const info = await transporter.sendMail(message(email))
      await fs.mkdir(dir, { recursive: true })
      const stamp = new Date().toISOString().replace(/[:.]/g, '-')
      const file = path.join(dir, `${stamp}-${email.label}.eml`)
      // Written whole, then renamed: whoever watches the folder never reads half an email.
      const partial = path.join(dir, `.${randomUUID()}.part`)
      await fs.writeFile(partial, info.message as Buffer)
      await fs.rename(partial, file)
      return { file }
    },
    close: () => {},
  }
}

function message(email: OutgoingEmail) {
  return {
    from: email.from,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    messageId: email.messageId,
    headers: email.headers,
  }
}
