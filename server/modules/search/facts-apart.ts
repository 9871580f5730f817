import { Worker } from 'node:worker_threads'
import { workerScript } from '#server/lib/worker-script'
import type { ListingFacts } from './listing-facts'
import type { CopyRead, ReadCopy } from './listing-feed'
import { THREAD_LIMITS } from './search-pool'

/**
 * 1,000,000 listings take about 10 s on a quiet machine; far longer means the read is stuck. A read in the background
 * (low priority, beside searches and writes) took 117 s at 1,000,000 on a busy 2-core machine: it gets longer.
 */
const READ_TIMEOUT_MS = 120_000
const BACKGROUND_READ_TIMEOUT_MS = 900_000

/** The lock a read in turn holds while it reads (facts-worker.ts, decision 0161); the same on every instance. */
export const WHOLE_READ_LOCK = "hashtextextended('search: a whole read of the copy', 0)"

/** A read as ReadCopy asks it, each option optional, with a bound on its time and a signal ending it. */
type Read = Partial<CopyRead> & { timeoutMs?: number; signal?: AbortSignal }

/** A thread ready to read the copy once (facts-worker.ts); `background`: at a lower priority. */
export function startReader(url: string, background: boolean): Worker {
  const { url: script, execArgv } = workerScript('facts-worker', import.meta.url)
  return new Worker(script, { workerData: { url, background }, execArgv, resourceLimits: THREAD_LIMITS })
}

/**
 * The copy (or what `commits` changed: readFacts) read on a worker thread (facts-worker.ts, run as the server
 * runs: workerScript): the instance goes on answering, only receiving it (about 0.1 s at 1,000,000 listings).
 */
export function readFactsApart(url: string, read: Read = {}): Promise<ListingFacts> {
  return readOn(startReader(url, read.background ?? false), read)
}

function readOn(
  worker: Worker,
  {
    signal,
    commits,
    inTurn,
    rebase,
    background = false,
    timeoutMs = background ? BACKGROUND_READ_TIMEOUT_MS : READ_TIMEOUT_MS,
  }: Read,
) {
  return new Promise<ListingFacts>((resolve, reject) => {
    // A read that hangs (a connection gone quiet, a lock held) or is stopped (keepListingsCurrent's stop)
    // ends its thread rather than keep it running: the caller reads on its own thread (the first read) or later.
    const stop = (err: unknown) => {
      reject(err)
      void worker.terminate()
    }
    if (signal?.aborted) return stop(signal.reason)
    worker.ref()
    worker.postMessage({ commits, inTurn, rebase })
    const late = `Reading search's copy of the listings on a worker thread took over ${timeoutMs / 1000} s`
    const deadline = setTimeout(() => stop(new Error(late)), timeoutMs).unref()
    const onAbort = () => stop(signal?.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    // The first of these settles the read; the thread's exit (after an error or a stop) lets go of the rest.
    worker.once('message', (message: { facts: ListingFacts }) => {
      clearTimeout(deadline)
      resolve(message.facts)
    })
    worker.once('error', reject)
    worker.once('exit', (code) => {
      signal?.removeEventListener('abort', onAbort)
      clearTimeout(deadline)
      reject(new Error(`The worker reading search's copy of the listings stopped (exit code ${code})`))
    })
  })
}

/**
 * readFactsApart for an instance: a read while a view answers (a rebase, a bulk load's part) takes a
 * low-priority spare thread started after the last read, so searches don't wait on a start (0.8 s of a core
 * from the sources). Each thread reads once and ends, its heap with it.
 */
export function factsReader(url: string) {
  let spare: Worker | undefined
  let stopped = false
  const forget = () => {
    spare = undefined
  }
  const startSpare = () => {
    if (stopped || spare) return
    const worker = startReader(url, true)
    // Idle, it keeps nothing running; if it fails before it is asked, the next read starts its own.
    worker.unref()
    worker.once('error', forget).once('exit', forget)
    spare = worker
  }
  const read: ReadCopy = (signal, { commits, background, inTurn, rebase }) => {
    let worker = spare
    if (background && worker) {
      worker.off('error', forget).off('exit', forget)
      spare = undefined
    } else worker = startReader(url, background)
    const reading = readOn(worker, { signal, commits, background, inTurn, rebase })
    void reading.then(startSpare, startSpare)
    return reading
  }
  return {
    read,
    stop: () => {
      stopped = true
      void spare?.terminate()
      spare = undefined
    },
    /** Whether a spare thread waits for the next read. */
    hasSpare: () => spare !== undefined,
  }
}
