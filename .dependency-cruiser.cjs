/**
 * The layering of src/ as rules: core → storage / embedder → engine → host → worker / client →
 * app (agent/ and import/ on core alone), dependencies pointing one way, no cycles. Type-only
 * imports count too: a type is as much a dependency of the layer that names it. The cycle rule
 * covers the whole repo (scripts, tests, the extension example, the build configs); the layer
 * rules speak of src/ alone. docs/architecture.md is the map these rules keep true.
 * Run (as `npm run check` does):
 *   npx depcruise src scripts test examples vite.config.ts vitest.config.ts --config .dependency-cruiser.cjs
 */

/**
 * dependency-cruiser reads TypeScript through the `typescript` package (< 7, which has a JS API)
 * or through swc. This project's TypeScript 7 has no JS API, so swc it is; without it every
 * .ts file would be skipped and the check would pass with nothing checked.
 */
function typeScriptParser() {
  try {
    require.resolve('@swc/core')
    return 'swc'
  } catch {
    throw new Error(
      'dependency-cruiser needs @swc/core to read TypeScript 7 sources: npm install -D @swc/core',
    )
  }
}

/** A layer may import itself and the layers named; anything else under src/ is forbidden. */
function layer(name, from, allowed) {
  return {
    name,
    comment: `${from} may import only ${allowed.join(', ')} (and npm packages)`,
    severity: 'error',
    from: { path: `^src/${from}/` },
    to: { path: '^src/', pathNot: [`^src/${from}/`, ...allowed.map((a) => `^src/${a}/`)] },
  }
}

/** What a user imports: the package's entry points (package.json "exports"). */
const PUBLIC_ENTRIES = [
  '^src/index\\.ts$',
  '^src/embedder/index\\.ts$',
  '^src/worker/memory-worker\\.ts$',
  '^src/agent/index\\.ts$',
  '^src/connect/index\\.ts$',
  '^src/import/index\\.ts$',
  '^src/sync/index\\.ts$',
  '^src/engine/index\\.ts$',
]

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle hides which module is the lower layer.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    layer('core-is-pure', 'core', []),
    layer('storage-on-core', 'storage', ['core']),
    layer('embedder-on-core', 'embedder', ['core']),
    layer('engine-below-host', 'engine', ['core', 'storage', 'embedder']),
    // The host plugs the replicator (sync/) into the engines it opens, by a dynamic import.
    layer('host-below-worker-and-client', 'host', [
      'core',
      'storage',
      'embedder',
      'engine',
      'sync',
    ]),
    // Worker and client are siblings: each reaches the other only through host/protocol.ts.
    layer('worker-on-host', 'worker', ['core', 'storage', 'embedder', 'engine', 'host']),
    layer('client-on-host', 'client', [
      'core',
      'storage',
      'embedder',
      'engine',
      'host',
      'connect',
      'sync',
    ]),
    // The memory for other origins: a host page's side (allow-list, scoping) over the host.
    // Sync between devices drives an engine through its replica hooks.
    layer('sync-on-engine', 'sync', ['core', 'storage', 'embedder', 'engine']),
    {
      ...layer('connect-on-host', 'connect', ['core', 'storage', 'embedder', 'engine', 'host']),
      from: { path: '^src/connect/', pathNot: '^src/connect/index\\.ts$' },
    },
    // engram/connect holds both sides: its barrel also offers the page's door, embedMemory.
    {
      name: 'connect-entry',
      comment: 'the engram/connect barrel may import connect, the layers below it, and embedMemory',
      severity: 'error',
      from: { path: '^src/connect/index\\.ts$' },
      to: {
        path: '^src/',
        pathNot: [
          ...['connect', 'core', 'storage', 'embedder', 'engine', 'host'].map((a) => `^src/${a}/`),
          '^src/client/embed-memory\\.ts$',
        ],
      },
    },
    // Agent tools speak MemoryApi (a core type): they run over either client, or the engine.
    layer('agent-on-the-contract', 'agent', ['core']),
    // Imports and the Markdown export speak MemoryApi too: they run over any door.
    layer('import-on-the-contract', 'import', ['core']),
    {
      name: 'app-uses-public-entries',
      comment: 'The app is a user of the package: it imports only what package.json exports.',
      severity: 'error',
      from: { path: '^src/app/' },
      to: { path: '^src/', pathNot: ['^src/app/', ...PUBLIC_ENTRIES] },
    },
    {
      name: 'entries-are-for-users',
      comment: 'The public barrels sit on top: nothing inside the library imports them.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/app/', '^src/index\\.ts$'] },
      to: { path: PUBLIC_ENTRIES },
    },
    {
      name: 'src-not-on-scripts-or-tests',
      comment: 'The library ships without its scripts and tests: nothing in src/ may import them.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(scripts|test|examples)/' },
    },
    {
      name: 'index-not-on-app',
      comment: 'The package entry must not pull in the PWA.',
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: '^src/(app|worker)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    parser: typeScriptParser(),
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
}
