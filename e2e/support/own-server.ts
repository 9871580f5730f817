import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'

// A server a journey starts for itself (a setting the shared e2e server does not have: a short hold, review of first
// listings, PostgreSQL, a required two-step sign-in, a local Google). It is started, waited for on /api/health and
// stopped the same way by every such journey. What it writes to stderr is kept (its last lines), so a server that
// exits or never answers fails the journey at once with why, not after minutes with "did not start".

const ROOT = path.resolve(import.meta.dirname, '../..')
const KEPT_STDERR = 16 * 1024

export type OwnServer = {
  /** Stops the server (SIGTERM) and waits for it to exit; does nothing when it has already. */
  stop: () => Promise<void>
}

export async function startOwnServer(options: {
  /** What the journey calls it, for the error: "the shipping server". */
  name: string
  /** The arguments after node: `scripts/e2e-server.mjs`, or the compiled server with its flags. */
  args: string[]
  env: NodeJS.ProcessEnv
  /** Where /api/health answers: http://127.0.0.1:port */
  baseURL: string
  timeoutMs: number
}): Promise<OwnServer> {
  const child = spawn(process.execPath, options.args, {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: options.env,
  })
  let stderr = ''
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-KEPT_STDERR)
  })
  const stop = () => stopServer(child)
  const failed = (why: string) =>
    new Error(
      `${options.name} ${why}${stderr ? `; its stderr ended with:\n${stderr.trimEnd()}` : ' (it wrote nothing to stderr)'}`,
    )
  const deadline = Date.now() + options.timeoutMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw failed(`exited (${child.exitCode ?? child.signalCode}) before it answered on ${options.baseURL}`)
    }
    const ok = await fetch(`${options.baseURL}/api/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return { stop }
    if (Date.now() > deadline) {
      await stop()
      throw failed(`did not answer on ${options.baseURL}/api/health within ${options.timeoutMs / 1000} s`)
    }
    await new Promise((r) => setTimeout(r, 500))
  }
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill('SIGTERM')
  await exited
}
