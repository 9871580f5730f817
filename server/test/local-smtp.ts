// A real SMTP server on 127.0.0.1 (a free port) that keeps every email it receives, parsed, for tests.
// `stop()` takes it down and `start()` brings it back on the same port, to test delivery after an outage.
import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export type LocalSmtp = {
  url: string
  port: number
  received: ParsedMail[]
  /** Resolves when `count` emails have arrived in all (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>
  start(): Promise<void>
  stop(): Promise<void>
}

export async function startLocalSmtp(): Promise<LocalSmtp> {
  const received: ParsedMail[] = []
  const waiters = new Set<() => void>()
  let port = 0
  let server: SMTPServer | undefined

  const listen = async () => {
    const next = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream)
          .then((mail) => {
            received.push(mail)
            for (const wake of waiters) wake()
            callback()
          })
          .catch(callback)
      },
    })
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => resolve())
    })
    port = (next.server.address() as AddressInfo).port
    server = next
  }
  await listen()

  return {
    get url() {
      return `smtp://127.0.0.1:${port}`
    },
    get port() {
      return port
    },
    received,
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve(received)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`Expected ${count} emails, got ${received.length}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      })
    },
    start: listen,
    async stop() {
      const current = server
      server = undefined
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()))
    },
  }
}
