import { defineConfig } from 'vitest/config'

// The cluster test starts real processes (two app instances, nginx) and runs on its own, never with the
// unit suite: `npm run test:cluster`.
export default defineConfig({
  test: {
    root: '.',
    include: ['cluster/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
})
