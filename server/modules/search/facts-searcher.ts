import { parentPort } from 'node:worker_threads'
import { collectLetGo } from '#server/lib/let-go'
import type { ListingFacts } from './listing-facts'
import type { FactsView } from './listing-view'
import { type PoolAnswer, searchView, type ToSearcher } from './search-pool'

// A searcher of the pool (search-pool.ts): holds the copies the main thread posts it (arrays shared, not
// copied) and views over them, and answers a search's page and counts from a view.

const copies = new Map<number, ListingFacts>()
const views = new Map<number, FactsView>()

parentPort?.on('message', (message: ToSearcher) => {
  switch (message.type) {
    case 'copy':
      copies.set(message.id, message.copy)
      return
    case 'drop-copy':
      // Its views went first (drop-view): nothing here reads it, and its memory goes once collected.
      copies.delete(message.id)
      if (message.collect) collectLetGo()
      return
    case 'view': {
      const parts = message.view.parts.map(({ copyId, ...marked }) => {
        const facts = copies.get(copyId)
        if (!facts) throw new Error(`A view of copy ${copyId}, which this searcher does not hold`)
        return { facts, ...marked }
      })
      views.set(message.id, { ...message.view, parts })
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
        answer = { id: message.id, ...searchView(view, message.ask) }
      } catch (err) {
        answer = { id: message.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }
      }
      parentPort?.postMessage(answer)
    }
  }
})
