import { parentPort, workerData } from 'node:worker_threads'
import { lowerThreadPriority, ownThreadNice, threadNice } from './thread-priority'

// A worker thread for thread-priority.test.ts: lowers its own priority and says what its thread's and the process's
// main thread's niceness then are.
const lowered = lowerThreadPriority(workerData.nice)
parentPort?.postMessage({
  lowered,
  own: ownThreadNice(),
  main: threadNice(process.pid),
})
