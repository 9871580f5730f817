import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { threadId, threadNice } from './thread-priority'
import { workerScript } from './worker-script'

const linux = process.platform === 'linux'

describe.runIf(linux)('a worker thread lowering its own priority', () => {
  it('runs at the niceness it set, while the process’s main thread keeps its own', async () => {
    const mainBefore = threadNice(process.pid)
    expect(mainBefore).toBeTypeOf('number')
    const script = workerScript('thread-priority-check', import.meta.url)
    const worker = new Worker(script.url, { execArgv: script.execArgv, workerData: { nice: 15 } })
    const said = await new Promise<{ lowered: boolean; own?: number; main?: number }>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    })
    await worker.terminate()
    expect(said).toEqual({ lowered: true, own: 15, main: mainBefore })
    // This thread is not the worker, and kept its own too.
    const self = threadId()
    expect(self).toBeTypeOf('number')
    expect(threadNice(self as number)).not.toBe(15)
  })
})
