import fs from 'node:fs'
import path from 'node:path'

/**
 * PGlite takes no lock of its own, and two processes writing one data folder corrupt it.
 * We hold a lock file with our pid; a second process gets a clear refusal instead.
 * A lock left by a process that no longer runs is taken over.
 */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError'
}

/**
 * Lock files this process holds. A lock file with our own pid that is not in here was left by an
 * earlier process that had the same pid (a container restarts as pid 1), so it is stale; one that is
 * in here means a second open in this very process, which would corrupt the folder just the same.
 */
const heldByThisProcess = new Set<string>()

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function acquireDataDirLock(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(path.resolve(dir), 'laptop-market.lock')
  if (heldByThisProcess.has(file)) {
    throw new DataDirLockedError(
      `The data folder ${dir} is already open in this process. Close it first, or set DATA_DIR to another folder.`,
    )
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' })
      heldByThisProcess.add(file)
      let released = false
      return () => {
        if (released) return
        released = true
        heldByThisProcess.delete(file)
        fs.rmSync(file, { force: true })
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = Number.parseInt(fs.readFileSync(file, 'utf8'), 10)
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `The data folder ${dir} is in use by another process (pid ${holder}). ` +
            'Stop that process, or set DATA_DIR to another folder.',
        )
      }
      fs.rmSync(file, { force: true })
    }
  }
  throw new DataDirLockedError(`Could not lock the data folder ${dir}`)
}
