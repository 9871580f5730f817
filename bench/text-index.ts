import path from 'node:path'
import { PgDialect } from 'drizzle-orm/pg-core'
import pg from 'pg'
import { buildTextIndex } from '#server/modules/search'
import { isOnSale } from '../server/lib/on-sale'
import { argValue } from './args'

// How long building the copy's text index takes (buildTextIndex, decision 0104), from the texts of every listing on
// sale in DATABASE_URL, read once. With `--before <checkout>` the same texts are built by that checkout's
// listing-text.ts too, the two alternating, so both see the same machine.
//   DATABASE_URL=postgres://… npx tsx bench/text-index.ts [--rounds 6] [--before <checkout>]

const rounds = Number(argValue('--rounds') ?? 6)
const beforeDir = argValue('--before')
const builds: [string, typeof buildTextIndex][] = [['this checkout', buildTextIndex]]
if (beforeDir) {
  const other = await import(path.resolve(beforeDir, 'server/modules/search/listing-text.ts'))
  builds.unshift([beforeDir, other.buildTextIndex])
}

const onSale = new PgDialect().sqlToQuery(isOnSale).sql
const client = new pg.Client({ connectionString: process.env.DATABASE_URL, options: '-c jit=off' })
await client.connect()
// The texts as the copy reads them (listing-facts.ts): newest first, rows by a line feed, words by a space.
const order = 'order by posted_on desc nulls last, id desc nulls last'
const { rows } = await client.query(`select count(*)::int as size,
  string_agg(array_to_string(tsvector_to_array(search_vector), ' '), E'\\n' ${order}) as words,
  string_agg(array_to_string(tsvector_to_array(ts_filter(search_vector, '{a}')), ' '), E'\\n' ${order}) as title_words,
  coalesce(json_agg(search_title ${order}), '[]') as titles
  from products where ${onSale}`)
await client.end()
const { size, words, title_words: titleWords, titles } = rows[0]
console.log(
  `${size.toLocaleString('en-US')} listings, ${(words.length / 1e6).toFixed(1)} M characters of words`,
)
const times = new Map(builds.map(([name]) => [name, [] as number[]]))
for (let i = 0; i < rounds; i++)
  for (const [name, build] of builds) {
    const started = performance.now()
    build(size, words ?? '', titleWords ?? '', titles)
    times.get(name)?.push(performance.now() - started)
  }
for (const [name, t] of times) {
  const sorted = [...t].sort((a, b) => a - b)
  console.log(
    `${name}: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms (${t.map((x) => x.toFixed(0)).join(', ')})`,
  )
}
