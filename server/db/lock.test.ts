import { type ChildProcess, execFile, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '#server/database'
import { migratedDataDir } from '#server/test/test-app'
import { acquireDataDirLock, DataDirLockedError } from './lock'

const run = promisify(execFile)
const ROOT = path.resolve(import.meta.dirname, '../..')
const TSX = path.join(ROOT, 'node_modules/.bin/tsx')

let dir: string
const lockFile = () => path.join(dir, 'laptop-market.lock')

/** A pid that belonged to a process which has exited. */
async function deadPid(): Promise<number> {
  const child = spawn('true')
  await new Promise((resolve) => child.on('exit', resolve))
  if (child.pid === undefined) throw new Error('no pid')
  return child.pid
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-lock-'))
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('acquireDataDirLock', () => {
  it('writes our pid to the lock file and removes it on release', () => {
    const release = acquireDataDirLock(dir)
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(String(process.pid))
    release()
    expect(fs.existsSync(lockFile())).toBe(false)
    release() // a second release is harmless
  })

  it('creates a data folder that does not exist yet', () => {
    const nested = path.join(dir, 'a', 'b')
    const release = acquireDataDirLock(nested)
    expect(fs.existsSync(path.join(nested, 'laptop-market.lock'))).toBe(true)
    release()
  })

  describe('while another live process holds the folder', () => {
    let holder: ChildProcess
    beforeEach(() => {
      holder = spawn('sleep', ['30'])
    })
    afterEach(() => {
      holder.kill()
    })

    it('refuses with a clear message that names the folder, the pid and the way out', () => {
      fs.writeFileSync(lockFile(), String(holder.pid))
      let error: unknown
      try {
        acquireDataDirLock(dir)
      } catch (err) {
        error = err
      }
      expect(error).toBeInstanceOf(DataDirLockedError)
      const message = (error as Error).message
      expect(message).toContain(dir)
      expect(message).toContain(`pid ${holder.pid}`)
      expect(message).toContain('DATA_DIR')
      // The holder's lock is left alone.
      expect(fs.readFileSync(lockFile(), 'utf8')).toBe(String(holder.pid))
    })
  })

  it('takes over a lock left by a process that no longer runs', async () => {
    fs.writeFileSync(lockFile(), String(await deadPid()))
    const release = acquireDataDirLock(dir)
    expect(fs.readFileSync(lockFile(), 'utf8')).toBe(String(process.pid))
    release()
  })

  it('takes over an empty or garbled lock file (a crash while writing it)', () => {
    for (const content of ['', 'not a pid']) {
      fs.writeFileSync(lockFile(), content)
      const release = acquireDataDirLock(dir)
      expect(fs.readFileSync(lockFile(), 'utf8')).toBe(String(process.pid))
      release()
    }
  })

  it('takes over a lock with our own pid that an earlier process with the same pid left', () => {
    fs.writeFileSync(lockFile(), String(process.pid))
    const release = acquireDataDirLock(dir)
    release()
    expect(fs.existsSync(lockFile())).toBe(false)
  })

  it('refuses a second open of the same folder in this process, until the first is released', () => {
    const release = acquireDataDirLock(dir)
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError)
    expect(() => acquireDataDirLock(`${dir}/.`)).toThrow(/already open in this process/)
    release()
    acquireDataDirLock(dir)()
  })
})

// PGlite only, and the same in both test projects: run it once.
describe.skipIf(process.env.TEST_DB === 'postgres')('openDatabase on a PGlite data folder', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lm-pglite-'))
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

  /** A second process that tries to open the same folder, as `npm start` would. */
  const openInChild = (folder: string) =>
    run(
      TSX,
      [
        '-e',
        `import { openDatabase } from '#server/database'
import { migratedDataDir } from '#server/test/test-app'
         openDatabase({ driver: 'pglite', dataDir: ${JSON.stringify(folder)} })
           .then((d) => d.close())
           .catch((err) => { console.error(err.message); process.exit(3) })`,
      ],
      { cwd: ROOT, timeout: 90_000 },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    )

  it('refuses a second process with a clear message, and the first keeps working', async () => {
    await migratedDataDir(dataDir)
    const database = await openDatabase({ driver: 'pglite', dataDir })
    try {
      const child = await openInChild(dataDir)
      expect(child.code).toBe(3)
      expect(child.stderr).toContain(
        `The data folder ${dataDir} is in use by another process (pid ${process.pid})`,
      )

      expect(await database.ping()).toBe(true)
      const result = await database.db.execute(sql`select count(*)::int as n from brands`)
      expect((result as unknown as { rows: unknown[] }).rows[0]).toEqual({ n: 0 })
    } finally {
      await database.close()
    }
    expect(fs.existsSync(path.join(dataDir, 'laptop-market.lock'))).toBe(false)

    // Once closed, another process opens the folder and finds the migrated database.
    expect(await openInChild(dataDir)).toEqual({ code: 0, stderr: '' })
  }, 120_000) // two child processes, each starting PGlite: slow on a busy 2-core machine
})
