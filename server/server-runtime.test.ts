// The node flags and environment every instance starts with (scripts/server-runtime.mjs) are the ones the image and
// the systemd unit give it: they are written out there, where the module cannot be imported.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SERVER_ENV, SERVER_NODE_FLAGS, serverEnv } from '../scripts/server-runtime.mjs'

const ROOT = path.resolve(import.meta.dirname, '..')
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8')

describe('what a server process starts with', () => {
  it('the image runs the server with the node flags and the environment', () => {
    const script = read('scripts/image.sh')
    const cmd = /--cmd '(\[.*\])'/.exec(script)?.[1]
    expect(JSON.parse(cmd ?? '[]')).toEqual([...SERVER_NODE_FLAGS, 'dist/app/main.js'])
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(script).toContain(`--env ${name}=${value}`)
  })

  it('the systemd unit runs the server with the node flags and the environment', () => {
    const unit = read('deploy/systemd/laptop-market@.service')
    const exec = /^ExecStart=\S+ (.*)$/m.exec(unit)?.[1]
    expect(exec?.split(' ')).toEqual([...SERVER_NODE_FLAGS, 'dist/app/main.js'])
    const environment = unit
      .split('\n')
      .filter((line) => line.startsWith('Environment='))
      .flatMap((line) => line.slice('Environment='.length).split(' '))
    for (const [name, value] of Object.entries(SERVER_ENV)) expect(environment).toContain(`${name}=${value}`)
  })

  it('a setting given in the environment wins over the default', () => {
    expect(serverEnv({ MALLOC_ARENA_MAX: '4' }).MALLOC_ARENA_MAX).toBe('4')
    expect(serverEnv({}).MALLOC_ARENA_MAX).toBe(SERVER_ENV.MALLOC_ARENA_MAX)
  })

  it('node accepts the flags', async () => {
    const { spawnSync } = await import('node:child_process')
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.exit(0)'])
    expect(run.status).toBe(0)
  })
})
