/**
 * A page for the WebMCP browser test: the published `@mcp-b/webmcp-polyfill`, the agent module
 * and the in-process client, bundled with Vite's `build` API into a folder of its own (inside
 * node_modules/.cache, so bare imports resolve from the project). transformers.js is swapped for
 * a stub: the page uses the n-gram embedder, and the build stays small and quick.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Plugin } from 'vite'
import { buildFixturePages, fixturePage, freshCacheDir } from './fixture-pages.ts'
import { ROOT } from './harness.ts'

const ENTRY = `
import { initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill'
import { registerMemoryTools } from '${join(ROOT, 'src/agent/register-memory-tools.ts')}'
import { openMemoryInProcess } from '${join(ROOT, 'src/client/open-memory-in-process.ts')}'
import { mountAgentPanel } from '${join(ROOT, 'src/app/agent-panel.ts')}'

initializeWebMCPPolyfill()
Object.assign(globalThis, { engramTest: { registerMemoryTools, openMemoryInProcess, mountAgentPanel } })
document.body.dataset.ready = 'true'
`

const PAGE = fixturePage('Engram WebMCP test', '<section id="agent-panel"></section>', 'entry.ts')

/** Builds the test page; returns the folder to serve. */
export async function buildWebMcpPage(): Promise<string> {
  const dir = await freshCacheDir('webmcp')
  await writeFile(join(dir, 'entry.ts'), ENTRY)
  await writeFile(join(dir, 'index.html'), PAGE)
  const outDir = join(dir, 'dist')
  await buildFixturePages(dir, outDir, {
    plugins: [noTransformers()],
    // The app's error helpers import the whole library, worker included.
    worker: { format: 'es', plugins: () => [noTransformers()] },
  })
  return outDir
}

function noTransformers(): Plugin {
  return {
    name: 'engram-test:no-transformers',
    enforce: 'pre',
    resolveId(source) {
      return source.endsWith('/transformers-embedder.ts') ? '\0no-transformers' : null
    },
    load(id) {
      if (id !== '\0no-transformers') return null
      return 'export class TransformersEmbedder { constructor() { throw new Error("not in the WebMCP test page") } }'
    },
  }
}
