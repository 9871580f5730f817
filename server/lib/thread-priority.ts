import fs from 'node:fs'
import os from 'node:os'

// A thread's own CPU priority. Linux keeps a priority per thread, named by the thread's id (`/proc/thread-self`), so
// one worker thread can yield to the others of its process (facts-worker.ts) while they keep theirs.

/** The calling thread's id as Linux names it, or undefined where there is no /proc/thread-self. */
export function threadId(): number | undefined {
  try {
    const id = Number(fs.readlinkSync('/proc/thread-self').split('/').pop())
    return Number.isInteger(id) && id > 0 ? id : undefined
  } catch {
    return undefined
  }
}

/** The niceness of thread `id` of this process (from its /proc stat line), or undefined where it cannot be read. */
export function threadNice(id: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${process.pid}/task/${id}/stat`, 'utf8')
    // The fields after the command's closing parenthesis: state is the first, nice the 17th.
    const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
    return Number.isInteger(nice) ? nice : undefined
  } catch {
    return undefined
  }
}

/** The calling thread's own niceness, or undefined where /proc cannot tell. */
export function ownThreadNice(): number | undefined {
  const id = threadId()
  return id === undefined ? undefined : threadNice(id)
}

/**
 * Lowers the calling thread's CPU priority to `nice` (0 to 19; the process's other threads keep theirs): on a busy
 * machine the thread then takes the CPU the others leave rather than an equal share beside them. False where it cannot
 * (not Linux, or not allowed).
 */
export function lowerThreadPriority(nice: number): boolean {
  const id = threadId()
  if (id === undefined) return false
  try {
    os.setPriority(id, nice)
    return true
  } catch {
    return false
  }
}
