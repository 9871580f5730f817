import { type ResourceLimits, Worker } from 'node:worker_threads'
import { workerScript } from '#server/lib/worker-script'
import type { ListingFacts } from './listing-facts'
import type { ReadCopy } from './listing-feed'

/**
 * The heap limits of the thread reading the copy. With V8's young generation (sized from the machine's memory: 128 MB
 * on one of 24 GB) its heap was 232 MB of which 148 used at 88,159 listings; with 24 MB, 101 of 88, the read as fast
 * within what a shared machine lets one tell. The old generation keeps V8's own limit: a read must never be stopped for
 * running out of it. docs/decisions/0096-*.
 */
const READER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 24 }

/** 1,000,000 listings take about 10 s; far longer means the read is stuck. */
const READ_TIMEOUT_MS = 120_000

type Read = { timeoutMs?: number; signal?: AbortSignal; commits?: string[] | undefined; background?: boolean }

/** A thread ready to read the copy once (facts-worker.ts); `background`: at a lower priority. */
function startReader(url: string, background: boolean): Worker {
  const script = workerScript('facts-worker', import.meta.url)
  return new Worker(script.url, {
    workerData: { url, background },
    execArgv: script.execArgv,
    resourceLimits: READER_LIMITS,
  })
}

/**
 * The copy of the listings (or of those the commits at `commits` changed: readFacts) read whole on a worker thread (facts-worker.ts) from the PostgreSQL database at `url`:
 * the instance goes on answering while the copy is built, and only receives it (about 0.1 s at 1,000,000 listings).
 * The worker runs the project's TypeScript as the server does: through tsx from the sources, or the compiled
 * facts-worker.js beside the compiled server (dist/app, scripts/build-server.mjs).
 */
export function readFactsApart(url: string, read: Read = {}): Promise<ListingFacts> {
  return readOn(startReader(url, read.background ?? false), read)
}

/** Asks `worker` (startReader's) for its read, and ends it if the read is stopped or late. */
function readOn(
  worker: Worker,
  { timeoutMs = READ_TIMEOUT_MS, signal, commits }: Read,
): Promise<ListingFacts> {
  return new Promise((resolve, reject) => {
    // A read that hangs (a connection gone quiet, a lock held) or that the instance stops (keepListingsCurrent's stop)
    // ends its thread rather than keep it running: the caller reads on its own thread.
    const stop = (err: unknown) => {
      reject(err)
      void worker.terminate()
    }
    if (signal?.aborted) return stop(signal.reason)
    worker.ref()
    worker.postMessage({ commits })
    const late = `Reading search's copy of the listings on a worker thread took over ${timeoutMs / 1000} s`
    const deadline = setTimeout(() => stop(new Error(late)), timeoutMs).unref()
    const onAbort = () => stop(signal?.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    // The first of these settles the read; the thread's exit, which follows an error or a stop, lets go of the rest.
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
 * readFactsApart for an instance: a read while a view answers (a rebase, a bulk load's part) is made by a spare thread
 * started after the read before it, at a lower priority, so that the searches do not pay for a thread's start (the
 * driver and the copy's modules loaded: 0.8 s of a core from the sources, through tsx) when a bulk load lands. Each
 * thread reads once and ends, its heap with it. `stop` ends the spare, when the instance stops.
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
  const read: ReadCopy = (signal, { commits, background }) => {
    let worker = spare
    if (background && worker) {
      worker.off('error', forget).off('exit', forget)
      spare = undefined
    } else worker = startReader(url, background)
    const reading = readOn(worker, { signal, commits })
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
