import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import type { Embedder } from '../../src/core/types.ts'
import { NgramEmbedder } from '../../src/embedder/ngram-embedder.ts'
import type { EngineOptions } from '../../src/engine/engine-options.ts'
import { MemoryEngine } from '../../src/engine/memory-engine.ts'

/** A fresh fake IndexedDB per test, so tests never see each other's data. */
export function freshIdb(): Pick<EngineOptions, 'indexedDB' | 'IDBKeyRange'> {
  return { indexedDB: new IDBFactory(), IDBKeyRange }
}

let counter = 0

/** Opens an engine over fake-indexeddb with the deterministic n-gram embedder by default. */
export async function openTestEngine(
  options: Omit<Partial<EngineOptions>, 'embedder'> & { embedder?: Embedder | null } = {},
): Promise<MemoryEngine> {
  const { embedder, ...rest } = options
  const resolved: EngineOptions = {
    name: `test-${++counter}`,
    ...freshIdb(),
    ...rest,
  }
  if (embedder !== null) resolved.embedder = embedder ?? new NgramEmbedder()
  return MemoryEngine.open(resolved)
}
