// `npm run build:server`: the server and its command-line tools compiled from TypeScript into plain JavaScript in
// dist/app (esbuild; the dependencies stay in node_modules), so production runs `node dist/app/main.js` without
// tsx. A source file's `import.meta.dirname` keeps naming the source file's own folder (its migrations beside it,
// dist/web from the project root), so the compiled server finds what the TypeScript one finds.
import './node-check.mjs'
import fs from 'node:fs'
import path from 'node:path'
import * as esbuild from 'esbuild'

const root = path.resolve(import.meta.dirname, '..')
const outdir = path.join(root, 'dist/app')

export const SERVER_ENTRIES = {
  main: 'server/main.ts',
  'migrate-cli': 'server/migrate-cli.ts',
  'seed-cli': 'server/seed-cli.ts',
  'admin-cli': 'server/admin-cli.ts',
  'demo-remove-cli': 'server/demo-remove-cli.ts',
  'media-migrate-cli': 'server/media-migrate-cli.ts',
  'backup-cli': 'server/backup-cli.ts',
  'restore-cli': 'server/restore-cli.ts',
  // Worker threads (server/lib/worker-script.ts finds each beside the chunk that starts it): the reader of search's
  // copy of the listings (facts-apart.ts) and the searchers of its pool (search-pool.ts).
  'facts-worker': 'server/modules/search/facts-worker.ts',
  'facts-searcher': 'server/modules/search/facts-searcher.ts',
}

/** Rewrites `import.meta.dirname` in the project's own files to the source file's folder, seen from dist/app. */
const sourceDirname = {
  name: 'source-dirname',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined
      const source = await fs.promises.readFile(args.path, 'utf8')
      if (!source.includes('import.meta.dirname')) return undefined
      const fromOut = path.relative(outdir, path.dirname(args.path)).split(path.sep).join('/')
      return {
        contents: source.replaceAll(
          'import.meta.dirname',
          `(import.meta.dirname + ${JSON.stringify(`/${fromOut}`)})`,
        ),
        loader: args.path.endsWith('x') ? 'tsx' : 'ts',
      }
    })
  },
}

export async function buildServer({ quiet = false } = {}) {
  const started = Date.now()
  fs.rmSync(outdir, { recursive: true, force: true })
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(
      Object.entries(SERVER_ENTRIES).map(([name, file]) => [name, path.join(root, file)]),
    ),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    // Dependencies are loaded from node_modules at run time, as under tsx; only the project's own code is compiled.
    packages: 'external',
    chunkNames: '[name]-[hash]',
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    plugins: [sourceDirname],
  })
  // Files in dist/app are ES modules whatever the package.json above them says.
  fs.writeFileSync(path.join(outdir, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`)
  if (!quiet) {
    const bytes = Object.entries(result.metafile.outputs)
      .filter(([file]) => file.endsWith('.js'))
      .reduce((sum, [, o]) => sum + o.bytes, 0)
    console.log(
      `Server compiled into dist/app (${(bytes / 1e6).toFixed(1)} MB of JavaScript) in ${Date.now() - started} ms`,
    )
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildServer()
}
