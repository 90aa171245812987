import { connectMemory } from './connect-memory.ts'
import type { MemoryClient, OpenMemoryOptions } from './memory-client.ts'

/**
 * Opens a memory in a dedicated module worker and returns it as a typed {@link MemoryClient}.
 * The engine, IndexedDB and the model all live in the worker; the page only sends messages.
 * In Node, or where workers cannot start, use `openMemoryInProcess` (same API); for a worker
 * or port you created yourself, `connectMemory`.
 *
 * @example
 * const memory = await openMemory({ name: 'assistant', embedder: { kind: 'transformers' } })
 * await memory.remember('Priya is the owner\'s sister-in-law', { tags: ['family'] })
 * // => { id: '01J…', status: 'created' }
 */
export async function openMemory(options: OpenMemoryOptions): Promise<MemoryClient> {
  const worker = options.worker ?? spawnWorker(options.name)
  return connectMemory(worker, options, { terminate: () => worker.terminate() })
}

function spawnWorker(name: string): Worker {
  if (typeof Worker === 'undefined') {
    throw new TypeError(
      'openMemory needs Web Workers, which this environment lacks: use openMemoryInProcess instead',
    )
  }
  // A URL, not an import: the bundler builds the worker entry as its own chunk.
  return new Worker(new URL('../worker/memory-worker.ts', import.meta.url), {
    type: 'module',
    name: `engram:${name}`,
  })
}
