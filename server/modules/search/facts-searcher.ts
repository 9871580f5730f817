import { parentPort } from 'node:worker_threads'
import type { ListingFacts } from './listing-facts'
import type { FactsView } from './listing-view'
import { type PoolAnswer, type PoolAsk, searchView, type ToSearcher } from './search-pool'

// A searcher of the instance's pool (search-pool.ts): it holds the copies the main thread posts it (their arrays
// shared, not copied) and the views over them, and answers a search's page and counts from a view, so the searches
// of an instance use every core while the main thread reads rows and writes answers.

const copies = new Map<number, ListingFacts>()
const views = new Map<number, FactsView>()

parentPort?.on('message', (message: ToSearcher) => {
  switch (message.type) {
    case 'copy':
      copies.set(message.id, message.copy)
      return
    case 'drop-copy':
      copies.delete(message.id)
      return
    case 'view': {
      const { marks, ...rest } = message.view
      const parts = message.copyIds.map((id, i) => {
        const facts = copies.get(id)
        if (!facts) throw new Error(`A view of copy ${id}, which this searcher does not hold`)
        return { facts, ...(marks[i] as (typeof marks)[number]) }
      })
      views.set(message.id, { ...rest, parts })
      return
    }
    case 'drop-view':
      views.delete(message.id)
      return
    case 'ask': {
      const view = views.get(message.viewId)
      let answer: PoolAnswer
      try {
        if (!view) throw new Error(`A search of view ${message.viewId}, which this searcher does not hold`)
        answer = { id: message.id, ...searchView(view, message.ask as PoolAsk) }
      } catch (err) {
        answer = { id: message.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }
      }
      parentPort?.postMessage(answer)
    }
  }
})
