// Runs one phase of the test command and says how long it took:
//   node scripts/phase.mjs "<name>" [--when-env=VAR] <command> [args...]
// With --when-env, the phase is skipped (and said so) when VAR is empty. When PHASE_TIMES_FILE is set, a
// line "<name>\t<seconds>\t<status>" is appended to it, so a caller (.ci/run) can print every phase at the end.
import './node-check.mjs'
import { spawn } from 'node:child_process'
import fs from 'node:fs'

const [name, ...rest] = process.argv.slice(2)
let whenEnv
if (rest[0]?.startsWith('--when-env=')) whenEnv = rest.shift().slice('--when-env='.length)
const [command, ...args] = rest
if (!name || !command) {
  console.error('usage: node scripts/phase.mjs "<name>" [--when-env=VAR] <command> [args...]')
  process.exit(2)
}

function record(seconds, status) {
  const file = process.env.PHASE_TIMES_FILE
  if (file) fs.appendFileSync(file, `${name}\t${seconds}\t${status}\n`)
}

if (whenEnv && !process.env[whenEnv]) {
  console.log(`\n==> ${name}: skipped (${whenEnv} is not set)`)
  record('-', 'skipped')
  process.exit(0)
}

const started = performance.now()
const child = spawn(command, args, { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('error', (err) => {
  console.error(`${name}: ${err.message}`)
  process.exit(127)
})
child.on('exit', (code, signal) => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const status = code === 0 ? 'passed' : signal ? `stopped by ${signal}` : `failed (exit ${code})`
  console.log(`\n==> ${name}: ${status} in ${seconds} s`)
  record(seconds, status)
  process.exit(code ?? 1)
})
