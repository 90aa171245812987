import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

export default defineConfig({
  // The package's public entry points, from source (the published build maps them to dist/).
  resolve: {
    alias: [
      { find: /^engram$/, replacement: src('index.ts') },
      { find: /^engram\/embedder$/, replacement: src('embedder/index.ts') },
      { find: /^engram\/worker$/, replacement: src('worker/memory-worker.ts') },
      { find: /^engram\/agent$/, replacement: src('agent/index.ts') },
      { find: /^engram\/connect$/, replacement: src('connect/index.ts') },
      { find: /^engram\/sync$/, replacement: src('sync/index.ts') },
      { find: /^engram\/engine$/, replacement: src('engine/index.ts') },
    ],
  },
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/integration/**/*.test.ts',
      'test/browser/**/*.test.ts',
      'test/package/**/*.test.ts',
    ],
    setupFiles: ['test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
})
