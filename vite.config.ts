import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'

const WEB_ROOT = path.resolve(import.meta.dirname, 'web')

/** Writes .br and .gz beside each text asset so the server sends them without compressing per request. */
function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.ssr ? '' : path.resolve(config.root, config.build.outDir)
    },
    closeBundle() {
      if (!outDir) return
      const walk = (dir: string): string[] =>
        fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
          const full = path.join(dir, e.name)
          return e.isDirectory() ? walk(full) : [full]
        })
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt|webmanifest)$/.test(file)) continue
        const data = fs.readFileSync(file)
        // Small files go as they are, but for index.html: every signed-in page is it, and a browser asks for it compressed.
        if (data.length < 1024 && !file.endsWith('.html')) continue
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }))
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        )
      }
    },
  }
}

/**
 * Writes the icon sprite into index.html where it says `<!-- icons -->`, so every page carries its icons' symbols and
 * draws them by reference within the document. A sprite in a file of its own (or an SVG favicon) is made into a
 * document of its own by the browser, 4–30 ms of a phone's main thread as the page loads, and one more request beside
 * the page's largest picture; written in, it costs the page about 1 kB of brotli.
 */
function inlineIcons(): Plugin {
  const sprite = path.resolve(WEB_ROOT, 'src/components/ui/icons.svg')
  return {
    name: 'inline-icons',
    transformIndexHtml: (html) => html.replace('<!-- icons -->', fs.readFileSync(sprite, 'utf8').trim()),
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), inlineIcons(), precompress()],
  // `vite build` makes the browser app in dist/web (with a manifest the server reads for preloads);
  // `vite build --ssr src/ssr/entry-server.tsx` the page renderer in dist/server.
  // The page renderer carries its libraries, React's production build among them, whatever NODE_ENV the server
  // runs with: React's development build renders a page several times slower (decision 0091).
  ...(isSsrBuild
    ? { ssr: { noExternal: true }, define: { 'process.env.NODE_ENV': JSON.stringify('production') } }
    : {}),
  build: isSsrBuild
    ? {
        outDir: '../dist/server',
        emptyOutDir: true,
        copyPublicDir: false,
        sourcemap: false,
        reportCompressedSize: false,
      }
    : {
        outDir: '../dist/web',
        emptyOutDir: true,
        sourcemap: false,
        reportCompressedSize: false,
        manifest: true,
        rolldownOptions: {
          // src/boot.ts is what a server-rendered page loads first; it starts the entry once the page is painted.
          input: { index: path.resolve(WEB_ROOT, 'index.html'), boot: path.resolve(WEB_ROOT, 'src/boot.ts') },
          preserveEntrySignatures: false,
          output: {
            // Everything the entry imports statically (the home page, with React) in one file, so `/` needs no
            // second round trip; the full app and every other page stay lazy chunks. The boot stays alone.
            codeSplitting: {
              groups: [{ name: 'index', tags: ['$initial'], test: (id) => !id.endsWith('boot.ts') }],
            },
          },
        },
      },
  server: {
    // The API accepts changes from this address out of production (server/lib/origin.ts DEV_SERVER_PORT),
    // so Vite must not move to another port when this one is taken.
    port: 5173,
    strictPort: true,
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  test: {
    root: '.',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine. Test files
    // spend much of their time waiting on a database, so two run well side by side there.
    maxWorkers: Math.max(2, os.availableParallelism()),
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          root: '.',
          include: ['server/**/*.test.ts', 'contract/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          setupFiles: ['server/test/setup.ts'],
          // Files of a worker share its modules: PGlite's WebAssembly, the app and its routes are loaded once per
          // worker instead of once per file (the server suite took 190 s isolated, 107 s shared). Every file builds
          // its own app on its own database, so nothing else is shared. docs/decisions/0032-test-files-share-modules.md.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // The same API suite again on PostgreSQL when a server is configured (CI sets it when one answers).
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              extends: true as const,
              test: {
                name: 'server-postgres',
                root: '.',
                include: ['server/**/*.test.ts'],
                environment: 'node' as const,
                globalSetup: ['server/test/global-setup.ts'],
                setupFiles: ['server/test/setup.ts'],
                env: { TEST_DB: 'postgres' },
                isolate: false,
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: 'web',
          root: '.',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
        },
      },
    ],
  },
}))
